/*
 * \\.\pipe\discord-ipc-0..9: one thread per index keeps a fresh pipe instance waiting, so
 * any number of games connect on any index at once; each connected instance goes to a relay.
 * An index another server in this Wine session already serves is left to it: the bridge
 * first tries to open it as a client (Wine 8 ignores FILE_FLAG_FIRST_PIPE_INSTANCE, which the
 * first instance still carries for Windows' sake).
 */
#include "bridge.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PIPE_BUFFER 65536

static HANDLE create_instance(int index, BOOL first) {
  wchar_t name[64];
  swprintf(name, sizeof name / sizeof *name, L"\\\\.\\pipe\\discord-ipc-%d", index);
  DWORD open_mode = PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED | (first ? FILE_FLAG_FIRST_PIPE_INSTANCE : 0);
  DWORD pipe_mode = PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS;
  return CreateNamedPipeW(name, open_mode, pipe_mode, PIPE_UNLIMITED_INSTANCES, PIPE_BUFFER, PIPE_BUFFER, 0, NULL);
}

static BOOL served_by_another(int index) {
  wchar_t name[64];
  swprintf(name, sizeof name / sizeof *name, L"\\\\.\\pipe\\discord-ipc-%d", index);
  HANDLE probe = CreateFileW(name, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING, 0, NULL);
  if (probe != INVALID_HANDLE_VALUE) {
    CloseHandle(probe);
    return TRUE;
  }
  return GetLastError() == ERROR_PIPE_BUSY;
}

/* Waits for a game on `pipe`; FALSE if the instance failed. */
static BOOL wait_for_game(HANDLE pipe) {
  OVERLAPPED overlapped;
  memset(&overlapped, 0, sizeof overlapped);
  overlapped.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
  BOOL connected = ConnectNamedPipe(pipe, &overlapped);
  DWORD error = connected ? ERROR_SUCCESS : GetLastError();
  DWORD ignored = 0;
  if (error == ERROR_IO_PENDING) connected = GetOverlappedResult(pipe, &overlapped, &ignored, TRUE);
  else if (error == ERROR_PIPE_CONNECTED) connected = TRUE;
  CloseHandle(overlapped.hEvent);
  return connected;
}

struct index_server {
  int index;
  HANDLE first;
};

static DWORD WINAPI serve_index(void *argument) {
  struct index_server *server = argument;
  int index = server->index;
  HANDLE pipe = server->first;
  free(server);
  for (;;) {
    if (pipe == INVALID_HANDLE_VALUE) {
      log_line("discord-ipc-%d: cannot create a pipe instance (error %lu); retrying in 1 s", index, GetLastError());
      Sleep(1000);
    } else if (wait_for_game(pipe)) {
      relay_start(pipe, index);
    } else {
      CloseHandle(pipe);
    }
    pipe = create_instance(index, FALSE);
  }
  return 0;
}

int listeners_start(void) {
  int served = 0;
  for (int index = 0; index < IPC_INDEX_COUNT; index++) {
    HANDLE first = served_by_another(index) ? INVALID_HANDLE_VALUE : create_instance(index, TRUE);
    if (first == INVALID_HANDLE_VALUE) {
      log_line("discord-ipc-%d: already served in this Wine session (error %lu); leaving it", index, GetLastError());
      continue;
    }
    struct index_server *server = malloc(sizeof *server);
    HANDLE thread = NULL;
    if (server != NULL) {
      server->index = index;
      server->first = first;
      thread = CreateThread(NULL, 0, serve_index, server, 0, NULL);
    }
    if (thread == NULL) {
      CloseHandle(first);
      free(server);
      continue;
    }
    CloseHandle(thread);
    served++;
  }
  return served;
}
