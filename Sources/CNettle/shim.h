#include <nettle/sha2.h>
#include <nettle/hmac.h>
