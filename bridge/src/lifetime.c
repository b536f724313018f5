/*
 * How long the bridge runs. With a program after `--`, it starts that program (the game) and
 * exits with it. Without one, it tells the wineserver it is a system process (as Wine's own
 * services are): it does not keep the Wine session alive, and it exits when the session ends,
 * that is when the last ordinary Windows program in it (the game, its launcher) has exited.
 */
#include "bridge.h"
#include <winternl.h>

/* Wine's own process information class (include/winternl.h in Wine): the reply is an event
   signalled when only system processes are left in the session. */
#define PROCESS_WINE_MAKE_PROCESS_SYSTEM 1000

typedef NTSTATUS(NTAPI *set_information_process_fn)(HANDLE, ULONG, void *, ULONG);

static HANDLE become_system_process(void) {
  HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
  set_information_process_fn set_information =
      ntdll == NULL ? NULL : (set_information_process_fn)(void (*)(void))GetProcAddress(ntdll, "NtSetInformationProcess");
  HANDLE session_ending = NULL;
  if (set_information == NULL) return NULL;
  NTSTATUS status = set_information(GetCurrentProcess(), PROCESS_WINE_MAKE_PROCESS_SYSTEM, &session_ending, sizeof(HANDLE *));
  return status == 0 ? session_ending : NULL;
}

int run_until_session_ends(void) {
  HANDLE session_ending = become_system_process();
  if (session_ending == NULL) {
    log_line("cannot follow the Wine session (not Wine's ntdll?); running until stopped");
    Sleep(INFINITE);
  }
  WaitForSingleObject(session_ending, INFINITE);
  log_line("the Wine session is ending (no game left in it): exiting");
  return 0;
}

int run_child(const wchar_t *command_line) {
  STARTUPINFOW startup;
  PROCESS_INFORMATION child;
  ZeroMemory(&startup, sizeof startup);
  startup.cb = sizeof startup;
  wchar_t *mutable_line = _wcsdup(command_line);
  BOOL started = mutable_line != NULL && CreateProcessW(NULL, mutable_line, NULL, NULL, FALSE, 0, NULL, NULL, &startup, &child);
  free(mutable_line);
  if (!started) {
    log_line("cannot start the game after `--` (error %lu)", GetLastError());
    return 127;
  }
  log_line("started the game (process %lu); the bridge exits when it does", child.dwProcessId);
  WaitForSingleObject(child.hProcess, INFINITE);
  DWORD code = 0;
  GetExitCodeProcess(child.hProcess, &code);
  log_line("the game exited with code %lu: exiting", code);
  CloseHandle(child.hThread);
  CloseHandle(child.hProcess);
  return (int)code;
}
