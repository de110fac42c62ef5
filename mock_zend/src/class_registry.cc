// zend-async-ref: mock Zend engine. The class table (zend_API.h,
// zend_operators.h): registering internal classes and interfaces,
// inheritance, declared properties, lookup and instanceof.
//
// A registered class is a persistent (malloc'd) copy of the entry passed
// in, stored IS_PTR in EG(class_table) under its interned lowercase name.
// Registration copies from the parent, in this order: declared property
// slots (the parent's first, so a slot index means the same property in
// every subclass), the interface list, create_object and
// default_object_handlers when the child has none; then it builds the
// child's own methods from info_internal_builtin_functions and borrows
// every parent method the child does not define. Nothing is inherited
// later: declare properties and interfaces on a parent before registering
// its children.
//
// Lifetime: classes, their functions and their case records live until
// php_module_shutdown() frees them in reverse registration order.

#include <cstdarg>

#include "engine_internal.h"

extern "C" {
#include "zend_execute.h"
}

namespace {

using mock_zend::internal::FreeFunction;
using mock_zend::internal::InternLowercase;

// A persistent copy of a default value: strings are interned.
void CopyDefault(zval* dst, const zval* src) {
  if (Z_TYPE_P(src) == IS_STRING && !ZSTR_IS_INTERNED(Z_STR_P(src))) {
    ZVAL_STR(dst,
             zend_string_init_interned(Z_STRVAL_P(src), Z_STRLEN_P(src), true));
    return;
  }
  ZVAL_COPY(dst, src);
}

void AppendPropertySlot(zend_class_entry* ce, zend_string* name,
                        const zval* value) {
  const int count = ce->default_properties_count + 1;
  ce->default_properties_table = static_cast<zval*>(
      __zend_realloc(ce->default_properties_table, sizeof(zval) * count));
  ce->property_names = static_cast<zend_string**>(
      __zend_realloc(ce->property_names, sizeof(zend_string*) * count));
  CopyDefault(&ce->default_properties_table[count - 1], value);
  ce->property_names[count - 1] = zend_string_copy(name);
  ce->default_properties_count = count;
}

bool HasInterface(const zend_class_entry* ce, const zend_class_entry* iface) {
  for (uint32_t i = 0; i < ce->num_interfaces; i++) {
    if (ce->interfaces[i] == iface) return true;
  }
  return false;
}

void AppendInterface(zend_class_entry* ce, zend_class_entry* iface) {
  if (iface == nullptr || HasInterface(ce, iface)) return;
  ce->interfaces = static_cast<zend_class_entry**>(__zend_realloc(
      ce->interfaces, sizeof(zend_class_entry*) * (ce->num_interfaces + 1)));
  ce->interfaces[ce->num_interfaces++] = iface;
}

void InheritFromParent(zend_class_entry* ce, zend_class_entry* parent) {
  for (int i = 0; i < parent->default_properties_count; i++) {
    AppendPropertySlot(ce, parent->property_names[i],
                       &parent->default_properties_table[i]);
  }
  for (uint32_t i = 0; i < parent->num_interfaces; i++) {
    AppendInterface(ce, parent->interfaces[i]);
  }
  if (ce->create_object == nullptr) ce->create_object = parent->create_object;
  if (ce->default_object_handlers == nullptr) {
    ce->default_object_handlers = parent->default_object_handlers;
  }
}

void InheritMethods(zend_class_entry* ce, zend_class_entry* parent) {
  zend_string* key;
  void* fn;
  ZEND_HASH_FOREACH_STR_KEY_PTR(&parent->function_table, key, fn) {
    if (!zend_hash_exists(&ce->function_table, key)) {
      zval tmp;
      ZVAL_PTR(&tmp, fn);
      zend_hash_add_new(&ce->function_table, key, &tmp);
    }
  }
  ZEND_HASH_FOREACH_END();
}

void BuildOwnMethods(zend_class_entry* ce) {
  const zend_function_entry* entry = ce->info_internal_builtin_functions;
  for (; entry != nullptr && entry->fname != nullptr; entry++) {
    mock_zend::internal::AddMethod(
        ce, mock_zend::internal::FunctionFromEntry(entry, ce));
  }
}

void FreeClass(zend_class_entry* ce) {
  void* ptr;
  ZEND_HASH_FOREACH_PTR(&ce->function_table, ptr) {
    auto* fn = static_cast<zend_function*>(ptr);
    if (fn->common.scope == ce) FreeFunction(fn);
  }
  ZEND_HASH_FOREACH_END();
  zend_hash_destroy(&ce->function_table);
  if (ce->ce_flags & ZEND_ACC_ENUM) mock_zend::internal::FreeEnumCases(ce);
  zend_hash_destroy(&ce->constants_table);
  for (int i = 0; i < ce->default_properties_count; i++) {
    zval_ptr_dtor(&ce->default_properties_table[i]);
    zend_string_release(ce->property_names[i]);
  }
  pefree(ce->default_properties_table, 1);
  pefree(ce->property_names, 1);
  pefree(ce->interfaces, 1);
  pefree(ce, 1);
}

}  // namespace

extern "C" {

zend_class_entry* zend_register_internal_class_ex(zend_class_entry* class_entry,
                                                  zend_class_entry* parent_ce) {
  zend_string* key =
      InternLowercase(ZSTR_VAL(class_entry->name), ZSTR_LEN(class_entry->name));
  if (zend_hash_exists(EG(class_table), key)) {
    zend_error(E_CORE_ERROR,
               "Cannot declare class %s, because the name is already in use",
               ZSTR_VAL(class_entry->name));
    return nullptr;
  }
  auto* ce = static_cast<zend_class_entry*>(
      __zend_calloc(1, sizeof(zend_class_entry)));
  ce->type = ZEND_INTERNAL_CLASS;
  ce->name = class_entry->name;
  ce->parent = parent_ce;
  ce->refcount = 1;
  ce->ce_flags = class_entry->ce_flags;
  ce->create_object = class_entry->create_object;
  ce->default_object_handlers = class_entry->default_object_handlers;
  ce->enum_backing_type = class_entry->enum_backing_type;
  ce->info_internal_builtin_functions =
      class_entry->info_internal_builtin_functions;
  zend_hash_init(&ce->function_table, 8, nullptr, nullptr, true);
  zend_hash_init(&ce->constants_table, 8, nullptr, nullptr, true);
  if (parent_ce != nullptr) InheritFromParent(ce, parent_ce);
  BuildOwnMethods(ce);
  if (parent_ce != nullptr) InheritMethods(ce, parent_ce);
  ce->get_iterator = class_entry->get_iterator != nullptr
                         ? class_entry->get_iterator
                     : parent_ce != nullptr ? parent_ce->get_iterator
                                            : nullptr;
  ce->constructor = mock_zend::internal::FindFunction(&ce->function_table,
                                                      ZEND_STRL("__construct"));
  ce->destructor = mock_zend::internal::FindFunction(&ce->function_table,
                                                     ZEND_STRL("__destruct"));
  zend_hash_add_ptr(EG(class_table), key, ce);
  return ce;
}

zend_class_entry* zend_register_internal_class(zend_class_entry* class_entry) {
  return zend_register_internal_class_ex(class_entry, nullptr);
}

zend_class_entry* zend_register_internal_class_with_flags(
    zend_class_entry* class_entry, zend_class_entry* parent_ce,
    uint32_t flags) {
  zend_class_entry* ce =
      zend_register_internal_class_ex(class_entry, parent_ce);
  if (ce != nullptr) ce->ce_flags |= flags;
  return ce;
}

zend_class_entry* zend_register_internal_interface(
    zend_class_entry* orig_class_entry) {
  zend_class_entry* ce =
      zend_register_internal_class_ex(orig_class_entry, nullptr);
  if (ce != nullptr) ce->ce_flags |= ZEND_ACC_INTERFACE;
  return ce;
}

void zend_class_implements(zend_class_entry* class_entry, int num_interfaces,
                           ...) {
  va_list ap;
  va_start(ap, num_interfaces);
  for (int i = 0; i < num_interfaces; i++) {
    auto* iface = va_arg(ap, zend_class_entry*);
    AppendInterface(class_entry, iface);
    for (uint32_t j = 0; j < iface->num_interfaces; j++) {
      AppendInterface(class_entry, iface->interfaces[j]);
    }
  }
  va_end(ap);
  mock_zend::internal::InstallIteratorHandler(class_entry);
}

void zend_declare_property_ex(zend_class_entry* ce, zend_string* name,
                              zval* property, int access_type) {
  (void)access_type;  // every property is public
  const int slot =
      mock_zend::internal::FindPropertySlot(ce, ZSTR_VAL(name), ZSTR_LEN(name));
  if (slot >= 0) {  // a redeclaration keeps the slot, with the new default
    zval* value = &ce->default_properties_table[slot];
    zval_ptr_dtor(value);
    CopyDefault(value, property);
    return;
  }
  zend_string* interned =
      zend_string_init_interned(ZSTR_VAL(name), ZSTR_LEN(name), true);
  AppendPropertySlot(ce, interned, property);
}

zend_class_entry* zend_lookup_class(zend_string* name) {
  const char* val = ZSTR_VAL(name);
  size_t len = ZSTR_LEN(name);
  if (len > 0 && val[0] == '\\') {
    val++;
    len--;
  }
  if (EG(class_table) == nullptr) return nullptr;
  std::string lower(val, len);
  zend_str_tolower(lower.data(), lower.size());
  return static_cast<zend_class_entry*>(
      zend_hash_str_find_ptr(EG(class_table), lower.data(), lower.size()));
}

zend_class_entry* zend_lookup_class_ex(zend_string* name, zend_string* key,
                                       uint32_t flags) {
  (void)key;
  (void)flags;
  return zend_lookup_class(name);
}

bool instanceof_function_slow(const zend_class_entry* instance_ce,
                              const zend_class_entry* ce) {
  const bool is_interface = (ce->ce_flags & ZEND_ACC_INTERFACE) != 0;
  for (const zend_class_entry* c = instance_ce; c != nullptr; c = c->parent) {
    if (c == ce) return true;
    if (!is_interface) continue;
    for (uint32_t i = 0; i < c->num_interfaces; i++) {
      if (c->interfaces[i] == ce ||
          instanceof_function_slow(c->interfaces[i], ce)) {
        return true;
      }
    }
  }
  return false;
}

}  // extern "C"

namespace mock_zend::internal {

int FindPropertySlot(const zend_class_entry* ce, const char* name, size_t len) {
  for (int i = 0; i < ce->default_properties_count; i++) {
    const zend_string* slot_name = ce->property_names[i];
    if (ZSTR_LEN(slot_name) == len &&
        memcmp(ZSTR_VAL(slot_name), name, len) == 0) {
      return i;
    }
  }
  return -1;
}

zval* PropertySlot(zend_object* object, const char* name, size_t len) {
  const int slot = FindPropertySlot(object->ce, name, len);
  return slot >= 0 ? &object->properties_table[slot] : nullptr;
}

zend_class_entry* RegisterClass(const char* name, zend_class_entry* parent,
                                const zend_function_entry* functions,
                                uint32_t flags) {
  zend_class_entry entry;
  memset(&entry, 0, sizeof(entry));
  entry.name = zend_string_init_interned(name, strlen(name), true);
  entry.info_internal_builtin_functions = functions;
  entry.ce_flags = flags;
  return zend_register_internal_class_ex(&entry, parent);
}

void ClassTablesStartup() {
  EG(function_table) =
      static_cast<HashTable*>(__zend_malloc(sizeof(HashTable)));
  zend_hash_init(EG(function_table), 64, nullptr, nullptr, true);
  EG(class_table) = static_cast<HashTable*>(__zend_malloc(sizeof(HashTable)));
  zend_hash_init(EG(class_table), 64, nullptr, nullptr, true);
}

namespace {

// Frees a table ClassTablesStartup made, after its entries (`free_entry`,
// the last registered first: a class goes before the classes it extends);
// `table` is left null. Nothing to do when it is null already.
void FreeTable(HashTable*& table, void (*free_entry)(void*)) {
  if (table == nullptr) return;
  void* entry;
  ZEND_HASH_REVERSE_FOREACH_PTR(table, entry) { free_entry(entry); }
  ZEND_HASH_FOREACH_END();
  zend_hash_destroy(table);
  pefree(table, 1);
  table = nullptr;
}

}  // namespace

void ClassTablesShutdown() {
  FreeTable(EG(class_table),
            [](void* ce) { FreeClass(static_cast<zend_class_entry*>(ce)); });
  FreeTable(EG(function_table),
            [](void* fn) { FreeFunction(static_cast<zend_function*>(fn)); });
}

}  // namespace mock_zend::internal
