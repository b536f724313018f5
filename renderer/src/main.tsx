import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { pickBridge } from './bridge/pick-bridge';
import { createAppStore } from './store/app-store';
import { StoreContext } from './store/react';
import './styles.css';

const store = createAppStore(pickBridge());
const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root');
createRoot(container).render(
  <StrictMode>
    <StoreContext.Provider value={store}>
      <App />
    </StoreContext.Provider>
  </StrictMode>,
);
