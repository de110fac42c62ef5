// zend-async-ref pool tests: the resources the tests' factories make and the
// exception their callables throw. Shared, without GoogleTest, by the pool
// tests (tests/pool/support/pool_test.h) and the pool fuzzer
// (tools/fuzz/pool_sequence.cc).
//
// Threading: the request's thread.

#ifndef ZAR_TESTS_POOL_SUPPORT_RESOURCES_H_
#define ZAR_TESTS_POOL_SUPPORT_RESOURCES_H_

#include <string>

#include "mock_zend/zval.h"

extern "C" {
#include "Zend/zend_exceptions.h"
#include "ext/spl/spl_exceptions.h"
#include "php.h"
}

namespace zar::pool_testing {

// A stdClass object with property `id`.
inline mock_zend::Zval NewObject(zend_long id) {
  mock_zend::Zval object;
  object_init(object.get());
  zend_update_property_long(nullptr, object.obj(), ZEND_STRL("id"), id);
  return object;
}

// The `id` property of an object, or -1.
inline zend_long IdOf(const zval* object) {
  if (Z_TYPE_P(object) != IS_OBJECT) return -1;
  zval rv;
  zval* id =
      zend_read_property(nullptr, Z_OBJ_P(object), ZEND_STRL("id"), true, &rv);
  return id != nullptr && Z_TYPE_P(id) == IS_LONG ? Z_LVAL_P(id) : -1;
}

// Throws RuntimeException(message).
inline void ThrowRuntime(const std::string& message) {
  zend_throw_exception(spl_ce_RuntimeException, message.c_str(), 0);
}

}  // namespace zar::pool_testing

#endif  // ZAR_TESTS_POOL_SUPPORT_RESOURCES_H_
