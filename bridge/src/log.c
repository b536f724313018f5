/* The bridge's log: stderr, or a file given by --log. Lines carry events, never payloads. */
#include "bridge.h"
#include <stdarg.h>
#include <stdio.h>

static FILE *sink;
static CRITICAL_SECTION lock;

void log_open(const wchar_t *path) {
  InitializeCriticalSection(&lock);
  sink = stderr;
  if (path != NULL) {
    FILE *file = _wfopen(path, L"a");
    if (file != NULL) sink = file;
  }
}

void log_line(const char *format, ...) {
  SYSTEMTIME now;
  GetSystemTime(&now);
  va_list args;
  va_start(args, format);
  EnterCriticalSection(&lock);
  fprintf(sink, "%04u-%02u-%02uT%02u:%02u:%02u.%03uZ companion-bridge: ", now.wYear, now.wMonth, now.wDay, now.wHour,
          now.wMinute, now.wSecond, now.wMilliseconds);
  vfprintf(sink, format, args);
  fputc('\n', sink);
  fflush(sink);
  LeaveCriticalSection(&lock);
  va_end(args);
}
