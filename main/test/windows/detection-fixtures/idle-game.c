/*
 * A Windows program that does nothing until its stdin has a line or ends (issue 30 §2): copied
 * under a game's name into the Wine prefix, it is the running game the detector must find.
 * Prints "RUNNING <pid>" once started.
 */
#include <stdio.h>
#include <windows.h>

int main(void) {
  printf("RUNNING %lu\n", GetCurrentProcessId());
  fflush(stdout);
  for (int c = getchar(); c != EOF && c != '\n'; c = getchar()) {
  }
  return 0;
}
