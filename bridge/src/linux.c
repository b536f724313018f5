/*
 * Linux system calls from the Windows exe. Under Wine on x86-64 Linux a Windows program's
 * threads are Linux threads, so the `syscall` instruction with Linux's numbers reaches the
 * kernel directly. Wine 8's Winsock refuses AF_UNIX (WSAEAFNOSUPPORT), which is why the bridge
 * does not use it; docs/proton-bridge.md has the measurement.
 */
#include "bridge.h"
#include <string.h>

enum {
  SYS_READ = 0, SYS_OPEN = 2, SYS_CLOSE = 3, SYS_SOCKET = 41, SYS_CONNECT = 42, SYS_SENDTO = 44, SYS_SHUTDOWN = 48, SYS_GETPID = 39,
};
enum { AF_UNIX_LINUX = 1, SOCK_STREAM_LINUX = 1, SOCK_CLOEXEC_LINUX = 02000000, MSG_NOSIGNAL_LINUX = 0x4000, SHUT_RDWR_LINUX = 2 };
enum { EINTR_LINUX = 4, O_CLOEXEC_LINUX = 02000000 };

/* Windows is LLP64 (a long is 32 bits): a Linux call's arguments and result are 64-bit. */
typedef long long word;

static word syscall6(word number, word a, word b, word c, word d, word e, word f) {
  word result;
  register word r10 __asm__("r10") = d;
  register word r8 __asm__("r8") = e;
  register word r9 __asm__("r9") = f;
  __asm__ volatile("syscall"
                   : "=a"(result)
                   : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  return result;
}

static word syscall3(word number, word a, word b, word c) { return syscall6(number, a, b, c, 0, 0, 0); }

struct linux_sockaddr_un {
  unsigned short family;
  char path[108];
};

/* True inside Wine on Linux: ntdll is Wine's and the kernel answers a Linux call. */
int linux_is_available(void) {
  /* Ask ntdll first: on Windows the instruction must never run. */
  HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
  if (ntdll == NULL || GetProcAddress(ntdll, "wine_get_version") == NULL) return 0;
  return syscall3(SYS_GETPID, 0, 0, 0) > 0;
}

long linux_connect_unix(const char *path) {
  struct linux_sockaddr_un address;
  size_t length = strlen(path);
  if (length >= sizeof address.path) return -36; /* ENAMETOOLONG */
  long fd = syscall3(SYS_SOCKET, AF_UNIX_LINUX, SOCK_STREAM_LINUX | SOCK_CLOEXEC_LINUX, 0);
  if (fd < 0) return fd;
  memset(&address, 0, sizeof address);
  address.family = AF_UNIX_LINUX;
  memcpy(address.path, path, length);
  long result;
  do result = syscall3(SYS_CONNECT, fd, (word)(INT_PTR)&address, (word)(sizeof address.family + length + 1));
  while (result == -EINTR_LINUX);
  if (result < 0) {
    linux_close(fd);
    return result;
  }
  return fd;
}

long linux_read(long fd, void *buffer, unsigned long size) {
  long result;
  do result = syscall3(SYS_READ, fd, (word)(INT_PTR)buffer, (word)size);
  while (result == -EINTR_LINUX);
  return result;
}

int linux_write_all(long fd, const void *buffer, unsigned long size) {
  const char *next = buffer;
  while (size > 0) {
    long written = syscall6(SYS_SENDTO, fd, (word)(INT_PTR)next, (word)size, MSG_NOSIGNAL_LINUX, 0, 0);
    if (written == -EINTR_LINUX) continue;
    if (written <= 0) return written < 0 ? (int)written : -1;
    next += written;
    size -= (unsigned long)written;
  }
  return 0;
}

long linux_open_read(const char *path) {
  long result;
  do result = syscall3(SYS_OPEN, (word)(INT_PTR)path, O_CLOEXEC_LINUX, 0);
  while (result == -EINTR_LINUX);
  return result;
}

void linux_shutdown(long fd) { syscall3(SYS_SHUTDOWN, fd, SHUT_RDWR_LINUX, 0); }

void linux_close(long fd) { syscall3(SYS_CLOSE, fd, 0, 0); }

const char *linux_error_name(long error) {
  switch (-error) {
    case 2: return "ENOENT";
    case 13: return "EACCES";
    case 32: return "EPIPE";
    case 36: return "ENAMETOOLONG";
    case 104: return "ECONNRESET";
    case 111: return "ECONNREFUSED";
    default: return "error";
  }
}
