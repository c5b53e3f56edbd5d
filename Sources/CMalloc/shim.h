// glibc's malloc tuning (mallopt), for the command's process.
#if defined(__linux__)
#include <malloc.h>
#endif
