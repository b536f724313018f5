/*
 * companion-bridge.exe [--log <file>] [-- <game> [arguments...]]
 * See docs/proton-bridge.md for what it does and how a Proton or Wine game starts it.
 */
#include "bridge.h"
#include <string.h>
#include <wchar.h>

/* The raw command line after the first ` -- `, as the game's own command line; NULL if none. */
static const wchar_t *after_separator(const wchar_t *line) {
  const wchar_t *found = wcsstr(line, L" -- ");
  if (found != NULL) return found + 4;
  size_t length = wcslen(line);
  return length >= 3 && wcscmp(line + length - 3, L" --") == 0 ? line + length : NULL;
}

/* One bridge per Wine session: a named object lives as long as its session's wineserver. */
static BOOL claim_session(void) {
  CreateMutexW(NULL, FALSE, L"Local\\companion-bridge");
  if (GetLastError() != ERROR_ALREADY_EXISTS) return TRUE;
  log_line("another companion-bridge already serves this Wine session: not serving");
  return FALSE;
}

static int serve(void) {
  int served = listeners_start();
  if (served == 0) log_line("every discord-ipc pipe is already served in this Wine session: not serving");
  else log_line("serving %d of the discord-ipc-0..9 pipes in this Wine session", served);
  return served;
}

int wmain(int argc, wchar_t **argv) {
  const wchar_t *log_path = NULL;
  for (int i = 1; i < argc && wcscmp(argv[i], L"--") != 0; i++) {
    if (wcscmp(argv[i], L"--log") == 0 && i + 1 < argc) log_path = argv[++i];
  }
  log_open(log_path);
  int served = 0;
  if (!linux_is_available()) log_line("not running under Wine on Linux: there is no Linux Companion to bridge to");
  else if (claim_session()) served = serve();
  const wchar_t *game = after_separator(GetCommandLineW());
  if (game != NULL && game[0] != L'\0') return run_child(game);
  if (served == 0) return 0;
  return run_until_session_ends();
}
