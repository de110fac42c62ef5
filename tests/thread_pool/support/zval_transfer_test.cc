#include "tests/thread_pool/support/zval_transfer_test.h"

#include <set>

#include "mock_zend/inspect.h"

namespace zar::thread_pool_testing {
namespace {

// A deep rendering of a request value (objects by class and slots; a
// cycle prints "*RECURSION*").
std::string Dump(const zval* value, std::set<const void*>* open) {
  switch (Z_TYPE_P(value)) {
    case IS_ARRAY: {
      std::string out = "[";
      zend_ulong index;
      zend_string* key;
      zval* entry;
      ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL_P(value), index, key, entry) {
        out += key != nullptr ? "\"" + std::string(ZSTR_VAL(key)) + "\""
                              : std::to_string(index);
        out += "=>" + Dump(entry, open) + ",";
      }
      ZEND_HASH_FOREACH_END();
      return out + "]";
    }
    case IS_OBJECT: {
      zend_object* object = Z_OBJ_P(value);
      if (!open->insert(object).second) return "*RECURSION*";
      std::string out = mock_zend::ClassName(object) + "{";
      for (int i = 0; i < object->ce->default_properties_count; i++) {
        out += Dump(&object->properties_table[i], open) + ",";
      }
      open->erase(object);
      return out + "}";
    }
    default:
      return mock_zend::Describe(value);
  }
}
}  // namespace

std::string Dump(const zval* value) {
  std::set<const void*> open;
  return Dump(value, &open);
}

}  // namespace zar::thread_pool_testing
