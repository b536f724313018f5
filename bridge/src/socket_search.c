/*
 * The Linux socket a game's connection goes to: the directory the Linux clients use (the
 * first of XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP that is set and not empty, else /tmp, one
 * trailing slash dropped) and in it the first of discord-ipc-0..9 that accepts a connection.
 * The variables come from the Linux envment Wine was started with (/proc/self/env):
 * Wine's Windows envment replaces TMP and TEMP with Windows paths.
 */
#include "bridge.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const PREFIX_VARIABLES[] = {"XDG_RUNTIME_DIR", "TMPDIR", "TMP", "TEMP"};
#define ENVIRON_MAX (256 * 1024)

/* The process's Linux envment, NUL-separated; NULL when it cannot be read. */
static char *read_linux_environ(unsigned long *size) {
  long fd = linux_open_read("/proc/self/environ");
  if (fd < 0) return NULL;
  char *buffer = malloc(ENVIRON_MAX + 1);
  unsigned long used = 0;
  while (buffer != NULL && used < ENVIRON_MAX) {
    long got = linux_read(fd, buffer + used, ENVIRON_MAX - used);
    if (got <= 0) break;
    used += (unsigned long)got;
  }
  linux_close(fd);
  if (buffer != NULL) buffer[used] = '\0';
  *size = used;
  return buffer;
}

static const char *lookup(const char *env, unsigned long size, const char *name) {
  size_t name_length = strlen(name);
  for (unsigned long at = 0; at < size; at += strlen(env + at) + 1) {
    const char *entry = env + at;
    if (strncmp(entry, name, name_length) == 0 && entry[name_length] == '=') return entry + name_length + 1;
  }
  return NULL;
}

/* Copies the socket directory into `dir`. */
static void resolve_directory(char *dir, size_t dir_size) {
  unsigned long size = 0;
  char *env = read_linux_environ(&size);
  const char *chosen = "/tmp";
  for (size_t i = 0; env != NULL && i < sizeof PREFIX_VARIABLES / sizeof *PREFIX_VARIABLES; i++) {
    const char *value = lookup(env, size, PREFIX_VARIABLES[i]);
    if (value != NULL && value[0] != '\0') {
      chosen = value;
      break;
    }
  }
  snprintf(dir, dir_size, "%s", chosen);
  size_t length = strlen(dir);
  if (length > 1 && dir[length - 1] == '/') dir[length - 1] = '\0';
  free(env);
}

long find_linux_socket(char *chosen, unsigned long chosen_size) {
  char dir[4096];
  resolve_directory(dir, sizeof dir);
  long last_error = -2;
  for (int index = 0; index < IPC_INDEX_COUNT; index++) {
    snprintf(chosen, chosen_size, "%s/discord-ipc-%d", dir, index);
    long fd = linux_connect_unix(chosen);
    if (fd >= 0) return fd;
    if (fd != -2) last_error = fd;
  }
  snprintf(chosen, chosen_size, "%s/discord-ipc-{0..9}", dir);
  return last_error;
}
