/*
 * One game connection: the game's pipe instance and a Linux socket, relayed both ways by two
 * threads until either side ends; then both are closed, so the game sees its connection drop
 * and reconnects (and the next connection looks for the Linux socket again).
 *
 * Game to Linux, the bytes go as they come (the Linux host reassembles frames). Linux to game,
 * the bridge writes whole frames only: the official C library on Windows reads a frame's body
 * only if all of it is already in the pipe and otherwise drops the connection.
 */
#include "bridge.h"
#include <stdlib.h>
#include <string.h>

#define READ_CHUNK 65536

struct relay {
  HANDLE pipe;
  long fd;
  int index;
  LONG id;
  volatile LONG ending;
  const char *reason;
  unsigned long long to_linux;
  unsigned long long to_game;
};

static volatile LONG next_id;

/* Either side ending wakes the other: the socket's blocking read, the pipe's pending read. */
static void relay_end(struct relay *relay, const char *reason) {
  if (InterlockedExchange(&relay->ending, 1) != 0) return;
  relay->reason = reason;
  linux_shutdown(relay->fd);
  CancelIoEx(relay->pipe, NULL);
}

/* An overlapped read or write on the pipe, waited for; FALSE when the pipe is done. */
static BOOL pipe_io(struct relay *relay, BOOL write, void *buffer, DWORD size, DWORD *done) {
  OVERLAPPED overlapped;
  memset(&overlapped, 0, sizeof overlapped);
  overlapped.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
  BOOL ok = write ? WriteFile(relay->pipe, buffer, size, NULL, &overlapped) : ReadFile(relay->pipe, buffer, size, NULL, &overlapped);
  if (ok || GetLastError() == ERROR_IO_PENDING) ok = GetOverlappedResult(relay->pipe, &overlapped, done, TRUE);
  CloseHandle(overlapped.hEvent);
  return ok;
}

static DWORD WINAPI game_to_linux(void *argument) {
  struct relay *relay = argument;
  char *buffer = malloc(READ_CHUNK);
  DWORD got = 0;
  while (buffer != NULL && pipe_io(relay, FALSE, buffer, READ_CHUNK, &got) && got > 0) {
    if (linux_write_all(relay->fd, buffer, got) != 0) {
      relay_end(relay, "the Linux side stopped reading");
      break;
    }
    relay->to_linux += got;
  }
  relay_end(relay, "the game closed its connection");
  free(buffer);
  return 0;
}

static unsigned long frame_length(const unsigned char *header) {
  return 8ul + ((unsigned long)header[4] | (unsigned long)header[5] << 8 | (unsigned long)header[6] << 16 | (unsigned long)header[7] << 24);
}

/* Writes every whole frame at the start of `buffer` to the game; returns the bytes consumed, or -1. */
static long write_whole_frames(struct relay *relay, unsigned char *buffer, unsigned long used) {
  unsigned long consumed = 0;
  while (used - consumed >= 8) {
    unsigned long length = frame_length(buffer + consumed);
    if (length - 8 > MAX_FRAME_BODY) return -1;
    if (used - consumed < length) break;
    DWORD written = 0;
    if (!pipe_io(relay, TRUE, buffer + consumed, (DWORD)length, &written) || written != length) return -1;
    relay->to_game += length;
    consumed += length;
  }
  return (long)consumed;
}

static void linux_to_game(struct relay *relay) {
  unsigned long capacity = READ_CHUNK, used = 0;
  unsigned char *buffer = malloc(capacity);
  while (buffer != NULL) {
    if (used == capacity) {
      unsigned long needed = used >= 8 ? frame_length(buffer) : capacity * 2;
      unsigned char *grown = needed - 8 <= MAX_FRAME_BODY ? realloc(buffer, needed) : NULL;
      if (grown == NULL) {
        relay_end(relay, "a frame from Linux over the size limit");
        break;
      }
      buffer = grown;
      capacity = needed;
    }
    long got = linux_read(relay->fd, buffer + used, capacity - used);
    if (got <= 0) break;
    used += (unsigned long)got;
    long consumed = write_whole_frames(relay, buffer, used);
    if (consumed < 0) {
      relay_end(relay, "the game's pipe closed or a frame was over the size limit");
      break;
    }
    memmove(buffer, buffer + consumed, used - (unsigned long)consumed);
    used -= (unsigned long)consumed;
  }
  relay_end(relay, "the Linux side closed it (Companion ended the connection, stopped or restarted)");
  free(buffer);
}

static DWORD WINAPI relay_main(void *argument) {
  struct relay *relay = argument;
  char path[4200];
  relay->fd = find_linux_socket(path, sizeof path);
  if (relay->fd < 0) {
    log_line("connection %ld on discord-ipc-%d: no Companion socket answers at %s (%s); closing it so the game retries", relay->id,
             relay->index, path, linux_error_name(relay->fd));
  } else {
    log_line("connection %ld on discord-ipc-%d: opened, relayed to %s", relay->id, relay->index, path);
    HANDLE up = CreateThread(NULL, 0, game_to_linux, relay, 0, NULL);
    if (up == NULL) relay_end(relay, "no thread for the connection");
    else linux_to_game(relay);
    if (up != NULL) {
      WaitForSingleObject(up, INFINITE);
      CloseHandle(up);
    }
    linux_close(relay->fd);
    log_line("connection %ld on discord-ipc-%d: closed: %s (%llu bytes to Linux, %llu to the game)", relay->id, relay->index,
             relay->reason, relay->to_linux, relay->to_game);
  }
  CloseHandle(relay->pipe);
  free(relay);
  return 0;
}

void relay_start(HANDLE pipe, int index) {
  struct relay *relay = calloc(1, sizeof *relay);
  HANDLE thread = NULL;
  if (relay != NULL) {
    relay->pipe = pipe;
    relay->index = index;
    relay->id = InterlockedIncrement(&next_id);
    thread = CreateThread(NULL, 0, relay_main, relay, 0, NULL);
  }
  if (thread == NULL) {
    log_line("discord-ipc-%d: no memory or thread for a new connection; closing it", index);
    CloseHandle(pipe);
    free(relay);
    return;
  }
  CloseHandle(thread);
}
