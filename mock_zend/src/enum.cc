// zend-async-ref: mock Zend engine. Internal enums (zend_enum.h).
//
// An enum is a final class flagged ZEND_ACC_ENUM and
// ZEND_ACC_NO_DYNAMIC_PROPERTIES implementing UnitEnum (and BackedEnum when
// backed), with PHP's typed readonly properties: `name` (string, slot 0)
// and, when backed, `value` (int or string, slot 1), both uninitialised
// until a case object sets them. Each case is a persistent record stored
// IS_PTR in the class's constants_table under the case name.
//
// Case objects are per request: the first lookup of a case in a request
// creates its object (name/value set), and every later lookup in that
// request returns the same object. The engine owns that reference and
// drops it in php_request_shutdown() before counting the objects still
// alive; outside a request a lookup returns NULL.

#include <vector>

#include "engine_internal.h"

namespace {

struct CaseRecord {
  zend_string* name;    // interned
  zval value;           // IS_UNDEF for pure enums; IS_LONG or interned string
  zend_object* object;  // this request's case object, or NULL
};

// The records whose object was created in the current request.
std::vector<CaseRecord*>& RequestCases() {
  static auto* cases = new std::vector<CaseRecord*>();
  return *cases;
}

zend_object_handlers enum_handlers;

zend_object* CaseObject(zend_class_entry* ce, CaseRecord* record) {
  if (record->object != nullptr) return record->object;
  zend_object* object = zend_objects_new(ce);
  object_properties_init(object, ce);
  zval name;
  ZVAL_STR(&name, record->name);
  zend_update_property_ex(ce, object, ZSTR_KNOWN(ZEND_STR_NAME), &name);
  if (!Z_ISUNDEF(record->value)) {
    zend_update_property_ex(ce, object, ZSTR_KNOWN(ZEND_STR_VALUE),
                            &record->value);
  }
  record->object = object;
  RequestCases().push_back(record);
  return object;
}

CaseRecord* FindCase(zend_class_entry* ce, const char* name, size_t len) {
  return static_cast<CaseRecord*>(
      zend_hash_str_find_ptr(&ce->constants_table, name, len));
}

// A public readonly property of type `type_code`, uninitialised.
void DeclareCaseProperty(zend_class_entry* ce, zend_known_string_id name,
                         zend_uchar type_code) {
  zval undef;
  ZVAL_UNDEF(&undef);
  zend_declare_typed_property(ce, ZSTR_KNOWN(name), &undef,
                              ZEND_ACC_PUBLIC | ZEND_ACC_READONLY, nullptr,
                              zend_type ZEND_TYPE_INIT_CODE(type_code, 0, 0));
}

// The case whose backing value is `long_key` (IS_LONG enums) or
// `string_key` (IS_STRING enums), or nullptr.
CaseRecord* FindCaseByValue(zend_class_entry* ce, zend_long long_key,
                            const zend_string* string_key) {
  void* ptr;
  ZEND_HASH_FOREACH_PTR(&ce->constants_table, ptr) {
    auto* record = static_cast<CaseRecord*>(ptr);
    const zval* value = &record->value;
    if (Z_TYPE_P(value) == IS_LONG && ce->enum_backing_type == IS_LONG &&
        Z_LVAL_P(value) == long_key) {
      return record;
    }
    if (Z_TYPE_P(value) == IS_STRING && string_key != nullptr &&
        zend_string_equals(Z_STR_P(value), string_key)) {
      return record;
    }
  }
  ZEND_HASH_FOREACH_END();
  return nullptr;
}

}  // namespace

extern "C" {

zend_class_entry* zend_register_internal_enum(
    const char* name, zend_uchar type, const zend_function_entry* functions) {
  if (enum_handlers.free_obj == nullptr) {
    enum_handlers = std_object_handlers;
    enum_handlers.clone_obj = nullptr;  // cases are never cloned
  }
  zend_class_entry* ce = mock_zend::internal::RegisterClass(
      name, nullptr, functions, ZEND_ACC_ENUM | ZEND_ACC_FINAL);
  if (ce == nullptr) return nullptr;
  ce->enum_backing_type = type;
  ce->ce_flags |= ZEND_ACC_NO_DYNAMIC_PROPERTIES;
  ce->default_object_handlers = &enum_handlers;
  zend_class_implements(ce, 1, zend_ce_unit_enum);
  DeclareCaseProperty(ce, ZEND_STR_NAME, IS_STRING);
  if (type != IS_UNDEF) {
    zend_class_implements(ce, 1, zend_ce_backed_enum);
    DeclareCaseProperty(ce, ZEND_STR_VALUE, type);
  }
  return ce;
}

void zend_enum_add_case_cstr(zend_class_entry* ce, const char* name,
                             zval* value) {
  auto* record = static_cast<CaseRecord*>(__zend_calloc(1, sizeof(CaseRecord)));
  record->name = zend_string_init_interned(name, strlen(name), true);
  ZVAL_UNDEF(&record->value);
  if (value != nullptr && Z_TYPE_P(value) == IS_STRING) {
    ZVAL_STR(&record->value, zend_string_init_interned(
                                 Z_STRVAL_P(value), Z_STRLEN_P(value), true));
  } else if (value != nullptr) {
    ZVAL_COPY_VALUE(&record->value, value);
  }
  if (zend_hash_add_ptr(&ce->constants_table, record->name, record) ==
      nullptr) {
    zend_error(E_CORE_ERROR, "Cannot redefine class constant %s::%s",
               ZSTR_VAL(ce->name), name);
    pefree(record, 1);
  }
}

zend_object* zend_enum_get_case_cstr(zend_class_entry* ce, const char* name) {
  if (!EG(active)) return nullptr;
  CaseRecord* record = FindCase(ce, name, strlen(name));
  return record != nullptr ? CaseObject(ce, record) : nullptr;
}

zend_object* zend_enum_get_case(zend_class_entry* ce, zend_string* name) {
  if (!EG(active)) return nullptr;
  CaseRecord* record = FindCase(ce, ZSTR_VAL(name), ZSTR_LEN(name));
  return record != nullptr ? CaseObject(ce, record) : nullptr;
}

void zend_enum_add_case(zend_class_entry* ce, zend_string* case_name,
                        zval* value) {
  std::string name(ZSTR_VAL(case_name), ZSTR_LEN(case_name));
  zend_enum_add_case_cstr(ce, name.c_str(), value);
}

zend_result zend_enum_get_case_by_value(zend_object** result,
                                        zend_class_entry* ce,
                                        zend_long long_key,
                                        zend_string* string_key,
                                        bool try_from) {
  *result = nullptr;
  if (!EG(active)) return FAILURE;
  if (ce->enum_backing_type != IS_LONG && ce->enum_backing_type != IS_STRING) {
    zend_value_error("%s is not a backed enum", ZSTR_VAL(ce->name));
    return FAILURE;
  }
  if (CaseRecord* record = FindCaseByValue(ce, long_key, string_key)) {
    *result = CaseObject(ce, record);
    return SUCCESS;
  }
  if (try_from) return SUCCESS;
  if (ce->enum_backing_type == IS_LONG) {
    zend_value_error(ZEND_LONG_FMT " is not a valid backing value for enum %s",
                     long_key, ZSTR_VAL(ce->name));
  } else {
    zend_value_error("\"%s\" is not a valid backing value for enum %s",
                     string_key != nullptr ? ZSTR_VAL(string_key) : "",
                     ZSTR_VAL(ce->name));
  }
  return FAILURE;
}

}  // extern "C"

namespace mock_zend::internal {

void ReleaseRequestEnumCases() {
  std::vector<CaseRecord*> cases;
  cases.swap(RequestCases());
  for (CaseRecord* record : cases) {
    zend_object* object = record->object;
    record->object = nullptr;
    if (object != nullptr) OBJ_RELEASE(object);
  }
}

void FreeEnumCases(zend_class_entry* ce) {
  void* record;
  ZEND_HASH_FOREACH_PTR(&ce->constants_table, record) { pefree(record, 1); }
  ZEND_HASH_FOREACH_END();
}

}  // namespace mock_zend::internal
