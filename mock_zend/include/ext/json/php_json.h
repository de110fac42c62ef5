/*
 * zend-async-ref: mock PHP.
 *
 * The JSON extension's C API (ext/json/php_json.h). Encoding is real:
 * php_json_encode_ex writes `val` as JSON to `buf` as json_encode() does for
 * null, bool, int, float (shortest round-trip form, as with
 * serialize_precision = -1), string (UTF-8, escaped per the
 * PHP_JSON_HEX_* / UNESCAPED_* options), array (a list as [...], anything
 * else as {...}, or always {...} with PHP_JSON_FORCE_OBJECT) and object
 * (as {...} of zend_hooked_object_build_properties(): the mock has no
 * property visibility, so every property), with PHP_JSON_PRETTY_PRINT's
 * four-space
 * layout. It returns FAILURE, leaving a partial encoding in `buf`, on
 * invalid UTF-8 (unless PHP_JSON_INVALID_UTF8_IGNORE/SUBSTITUTE), INF/NAN,
 * resources, or nesting deeper than `depth`; php_json_last_error_code()
 * tells which. It never throws (PHP_JSON_THROW_ON_ERROR is json_encode()'s
 * business, as in PHP).
 *
 * Decoding is not provided: php_json_decode_ex reports E_CORE_ERROR naming
 * itself and returns FAILURE.
 *
 * Threading: the last error code is per thread.
 */
#ifndef PHP_JSON_H
#define PHP_JSON_H

#include "php.h"
#include "zend_smart_str_public.h"

#define PHP_JSON_API PHPAPI

BEGIN_EXTERN_C()

typedef enum {
  PHP_JSON_ERROR_NONE = 0,
  PHP_JSON_ERROR_DEPTH,
  PHP_JSON_ERROR_STATE_MISMATCH,
  PHP_JSON_ERROR_CTRL_CHAR,
  PHP_JSON_ERROR_SYNTAX,
  PHP_JSON_ERROR_UTF8,
  PHP_JSON_ERROR_RECURSION,
  PHP_JSON_ERROR_INF_OR_NAN,
  PHP_JSON_ERROR_UNSUPPORTED_TYPE,
  PHP_JSON_ERROR_INVALID_PROPERTY_NAME,
  PHP_JSON_ERROR_UTF16,
  PHP_JSON_ERROR_NON_BACKED_ENUM,
} php_json_error_code;

/* json_encode() options */
#define PHP_JSON_HEX_TAG (1 << 0)
#define PHP_JSON_HEX_AMP (1 << 1)
#define PHP_JSON_HEX_APOS (1 << 2)
#define PHP_JSON_HEX_QUOT (1 << 3)
#define PHP_JSON_FORCE_OBJECT (1 << 4)
#define PHP_JSON_NUMERIC_CHECK (1 << 5)
#define PHP_JSON_UNESCAPED_SLASHES (1 << 6)
#define PHP_JSON_PRETTY_PRINT (1 << 7)
#define PHP_JSON_UNESCAPED_UNICODE (1 << 8)
#define PHP_JSON_PARTIAL_OUTPUT_ON_ERROR (1 << 9)
#define PHP_JSON_PRESERVE_ZERO_FRACTION (1 << 10)
#define PHP_JSON_UNESCAPED_LINE_TERMINATORS (1 << 11)

/* json_decode() options */
#define PHP_JSON_OBJECT_AS_ARRAY (1 << 0)
#define PHP_JSON_BIGINT_AS_STRING (1 << 1)

/* common options */
#define PHP_JSON_INVALID_UTF8_IGNORE (1 << 20)
#define PHP_JSON_INVALID_UTF8_SUBSTITUTE (1 << 21)
#define PHP_JSON_THROW_ON_ERROR (1 << 22)

#define PHP_JSON_PARSER_DEFAULT_DEPTH 512

PHP_JSON_API zend_result php_json_encode_string(smart_str *buf, const char *s,
                                                size_t len, int options);
PHP_JSON_API zend_result php_json_encode_ex(smart_str *buf, zval *val,
                                            int options, zend_long depth);
PHP_JSON_API zend_result php_json_encode(smart_str *buf, zval *val,
                                         int options);
PHP_JSON_API zend_result php_json_decode_ex(zval *return_value, const char *str,
                                            size_t str_len, zend_long options,
                                            zend_long depth);
/* The error of the last encode on this thread (json_last_error()). */
PHP_JSON_API php_json_error_code php_json_last_error_code(void);

END_EXTERN_C()

#endif /* PHP_JSON_H */
