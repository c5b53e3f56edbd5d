#include <nettle/sha2.h>
#include <nettle/hmac.h>
#include <nettle/md5.h>
