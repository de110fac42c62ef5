/*
 * zend-async-ref: mock PHP.
 *
 * Base64 (RFC 4648, standard alphabet, '=' padding) as PHP's
 * ext/standard/base64.h. Results are new request strings the caller
 * releases.
 */
#ifndef BASE64_H
#define BASE64_H

#include "php.h"

BEGIN_EXTERN_C()

PHPAPI extern zend_string *php_base64_encode(const unsigned char *str,
                                             size_t length);
/* Decodes `str`. Non-strict: characters outside the alphabet are skipped
 * and padding is optional. Strict: any such character, misplaced padding or
 * a length that cannot be base64 makes it return NULL. */
PHPAPI extern zend_string *php_base64_decode_ex(const unsigned char *str,
                                                size_t length, bool strict);

static zend_always_inline zend_string *php_base64_encode_str(
    const zend_string *str) {
  return php_base64_encode((const unsigned char *)ZSTR_VAL(str), ZSTR_LEN(str));
}

static zend_always_inline zend_string *php_base64_decode(
    const unsigned char *str, size_t len) {
  return php_base64_decode_ex(str, len, false);
}

static zend_always_inline zend_string *php_base64_decode_str(
    const zend_string *str) {
  return php_base64_decode_ex((const unsigned char *)ZSTR_VAL(str),
                              ZSTR_LEN(str), false);
}

END_EXTERN_C()

#endif /* BASE64_H */
