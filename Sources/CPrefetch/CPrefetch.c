// The module is its header (CPrefetch.h, inlined where it is used); SwiftPM builds a C target from at least one source file.
#include "CPrefetch.h"
