/*
 * companion-bridge: serves \\.\pipe\discord-ipc-0..9 inside a Wine session and relays each
 * game connection to the first live Linux discord-ipc-N socket (see docs/proton-bridge.md).
 */
#ifndef COMPANION_BRIDGE_H
#define COMPANION_BRIDGE_H

#include <windows.h>

#define IPC_INDEX_COUNT 10
/* A frame's body may not exceed this (the host's own limit is far below). */
#define MAX_FRAME_BODY (16u * 1024u * 1024u)

/* log.c: one line per event, never a frame's bytes. */
void log_open(const wchar_t *path);
void log_line(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* linux.c: the Linux kernel's own calls, made from the Windows exe (see docs). */
long linux_connect_unix(const char *path);
long linux_open_read(const char *path);
long linux_read(long fd, void *buffer, unsigned long size);
int linux_write_all(long fd, const void *buffer, unsigned long size);
void linux_shutdown(long fd);
void linux_close(long fd);
int linux_is_available(void);
const char *linux_error_name(long error);

/* socket_search.c: where the Linux clients look, and the first socket that answers. */
long find_linux_socket(char *chosen, unsigned long chosen_size);

/* relay.c: one game connection, both ways, until either side ends. */
void relay_start(HANDLE pipe, int index);

/* listener.c: every pipe index, as many instances as games connect. */
int listeners_start(void);

/* lifetime.c: how long the bridge runs. */
int run_until_session_ends(void);
int run_child(const wchar_t *command_line);

#endif
