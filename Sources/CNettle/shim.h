#include <nettle/sha2.h>
