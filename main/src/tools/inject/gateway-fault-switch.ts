import type { GatewayFaultPort, GatewayLink, GatewayLogger } from '../../host/gateway/gateway-client.js';
import type { GatewayFaults } from './injection-backend.js';

const QUIET: GatewayLogger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * QA mode's fault switch on the gateway client: it follows the client's current connection and
 * drops it as a network loss would, or stalls it for a while. Only a host in QA mode installs it.
 */
export class GatewayFaultSwitch implements GatewayFaultPort, GatewayFaults {
  private current: GatewayLink | undefined;
  private readonly stalls = new Map<GatewayLink, ReturnType<typeof setTimeout>>();

  constructor(private readonly logger: GatewayLogger = QUIET) {}

  attach(link: GatewayLink): void {
    this.current = link;
  }

  detach(link: GatewayLink): void {
    const timer = this.stalls.get(link);
    if (timer !== undefined) clearTimeout(timer);
    this.stalls.delete(link);
    if (this.current === link) this.current = undefined;
  }

  isStalled(link: GatewayLink): boolean {
    return this.stalls.has(link);
  }

  /**
   * Drops the connection as a network loss would: the socket is destroyed without a close
   * frame, and the client resumes the session as after any other loss. False when there is
   * no open connection.
   */
  simulateNetworkLoss(): boolean {
    const link = this.openLink();
    if (link === undefined) return false;
    this.logger.info({ connection: link.id }, 'gateway: simulated network loss');
    link.terminate();
    return true;
  }

  /**
   * Stalls the connection for `ms` as a network that stops carrying data would: nothing is
   * read (the socket is paused) and nothing is sent (heartbeats are lost, other sends refused
   * until 'drain'). A stall that outlasts a heartbeat interval ends in the zombie check: the
   * client drops the connection and resumes. False when there is no open connection.
   */
  simulateStall(ms: number): boolean {
    const link = this.openLink();
    if (link === undefined || !Number.isFinite(ms) || ms <= 0) return false;
    const previous = this.stalls.get(link);
    if (previous !== undefined) clearTimeout(previous);
    this.logger.info({ connection: link.id, ms }, 'gateway: simulated stall');
    link.pause();
    this.stalls.set(
      link,
      setTimeout(() => {
        this.stalls.delete(link);
        if (link !== this.current) return;
        this.logger.info({ connection: link.id }, 'gateway: simulated stall over');
        link.resume();
      }, ms),
    );
    return true;
  }

  private openLink(): GatewayLink | undefined {
    const link = this.current;
    return link !== undefined && link.isOpen() ? link : undefined;
  }
}
