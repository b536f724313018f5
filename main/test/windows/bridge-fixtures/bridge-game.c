/*
 * A Windows test game for the bridge test: it talks to \\?\pipe\discord-ipc-N the way the
 * official C library does on Windows (CreateFileW for N from 0, the handshake, a frame's body
 * read only when all of it is in the pipe, PONG for PING, reconnect after a drop) and prints
 * one line per event on stdout for the test to follow.
 *
 * bridge-game.exe <client_id> <state> <stop file>: runs until the stop file exists.
 */
#include <windows.h>
#include <stdio.h>
#include <string.h>

static const char *stop_file;

static void say(const char *format, const char *detail) {
  printf(format, detail);
  printf("\n");
  fflush(stdout);
}

static int stop_requested(void) { return GetFileAttributesA(stop_file) != INVALID_FILE_ATTRIBUTES; }

static HANDLE open_pipe(void) {
  for (int index = 0; index < 10; index++) {
    wchar_t name[64];
    swprintf(name, 64, L"\\\\?\\pipe\\discord-ipc-%d", index);
    HANDLE pipe = CreateFileW(name, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING, 0, NULL);
    if (pipe != INVALID_HANDLE_VALUE) {
      char text[8];
      snprintf(text, sizeof text, "%d", index);
      say("CONNECTED %s", text);
      return pipe;
    }
  }
  return INVALID_HANDLE_VALUE;
}

static int send_frame(HANDLE pipe, unsigned op, const char *body, DWORD length) {
  static char frame[65536];
  DWORD written = 0;
  memcpy(frame, &op, 4);
  memcpy(frame + 4, &length, 4);
  memcpy(frame + 8, body, length);
  return WriteFile(pipe, frame, length + 8, &written, NULL) && written == length + 8;
}

/* 1: a frame in `op`/`body`; 0: nothing yet; -1: the pipe broke or a frame came in parts. */
static int read_frame(HANDLE pipe, unsigned *op, char *body, DWORD *length) {
  DWORD available = 0, got = 0;
  unsigned header[2];
  if (!PeekNamedPipe(pipe, NULL, 0, NULL, &available, NULL)) return -1;
  if (available < 8) return 0;
  if (!ReadFile(pipe, header, 8, &got, NULL) || got != 8) return -1;
  if (header[1] >= 65536 || !PeekNamedPipe(pipe, NULL, 0, NULL, &available, NULL) || available < header[1]) {
    say("PARTIAL_FRAME%s", "");
    return -1;
  }
  if (header[1] > 0 && (!ReadFile(pipe, body, header[1], &got, NULL) || got != header[1])) return -1;
  body[header[1]] = '\0';
  *op = header[0];
  *length = header[1];
  return 1;
}

static void on_frame(HANDLE pipe, unsigned op, char *body, DWORD length, const char *client_state) {
  char request[1024];
  if (op == 3) send_frame(pipe, 4, body, length);
  if (op == 2) say("CLOSE_FRAME%s", "");
  if (op != 1) return;
  if (strstr(body, "\"READY\"") != NULL) {
    say("READY%s", "");
    int size = snprintf(request, sizeof request,
                        "{\"cmd\":\"SET_ACTIVITY\",\"nonce\":\"1\",\"args\":{\"pid\":%lu,\"activity\":{\"state\":\"%s\",\"details\":\"Under Wine\"}}}",
                        GetCurrentProcessId(), client_state);
    send_frame(pipe, 1, request, (DWORD)size);
  } else if (strstr(body, "\"SET_ACTIVITY\"") != NULL) {
    say(strstr(body, "\"ERROR\"") != NULL ? "ACTIVITY_ERROR%s" : "ACTIVITY_OK%s", "");
  }
}

/* One connection, from the handshake until it drops or the test asks the game to stop. */
static void play(HANDLE pipe, const char *client_id, const char *state) {
  static char body[65536];
  char handshake[256];
  int size = snprintf(handshake, sizeof handshake, "{\"v\":1,\"client_id\":\"%s\"}", client_id);
  if (!send_frame(pipe, 0, handshake, (DWORD)size)) return;
  for (;;) {
    if (stop_requested()) return;
    unsigned op = 0;
    DWORD length = 0;
    int outcome = read_frame(pipe, &op, body, &length);
    if (outcome < 0) return;
    if (outcome == 0) Sleep(20);
    else on_frame(pipe, op, body, length, state);
  }
}

int main(int argc, char **argv) {
  if (argc != 4) return 2;
  const char *client_id = argv[1], *state = argv[2];
  stop_file = argv[3];
  say("STARTED%s", "");
  while (!stop_requested()) {
    HANDLE pipe = open_pipe();
    if (pipe == INVALID_HANDLE_VALUE) {
      Sleep(250);
      continue;
    }
    play(pipe, client_id, state);
    CloseHandle(pipe);
    if (!stop_requested()) {
      say("DISCONNECTED%s", "");
      Sleep(300);
    }
  }
  say("STOPPED%s", "");
  return 0;
}
