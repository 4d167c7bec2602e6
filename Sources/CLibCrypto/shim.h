// OpenSSL's big-number arithmetic (libcrypto, Debian's libssl-dev): SRP's modular exponentiation.
#include <openssl/bn.h>
