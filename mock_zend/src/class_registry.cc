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

// A slot's default taken from a declaration (PHP: the declaration owns the
// value it is given): a string is interned and the given one released.
void TakeDefault(zval* dst, zval* src) {
  if (Z_TYPE_P(src) == IS_STRING && !ZSTR_IS_INTERNED(Z_STR_P(src))) {
    CopyDefault(dst, src);
    zend_string_release(Z_STR_P(src));
    return;
  }
  ZVAL_COPY_VALUE(dst, src);
}

// Adds slot default_properties_count, described by `info` (the class's own
// or its parent's), whose default is already in the new table entry the
// caller fills through the returned pointer.
zval* AppendPropertySlot(zend_class_entry* ce, zend_property_info* info) {
  const int count = ce->default_properties_count + 1;
  ce->default_properties_table = static_cast<zval*>(
      __zend_realloc(ce->default_properties_table, sizeof(zval) * count));
  ce->properties_info_table = static_cast<zend_property_info**>(
      __zend_realloc(ce->properties_info_table, sizeof(info) * count));
  ce->properties_info_table[count - 1] = info;
  ce->default_properties_count = count;
  return &ce->default_properties_table[count - 1];
}

// Releases what a property info owns (the class names of its type, a type
// list not arena-allocated) and the info itself.
void FreePropertyInfo(zend_property_info* info) {
  zend_type* single;
  ZEND_TYPE_FOREACH_MUTABLE(info->type, single) {
    if (ZEND_TYPE_HAS_NAME(*single))
      zend_string_release(ZEND_TYPE_NAME(*single));
  }
  ZEND_TYPE_FOREACH_END();
  if (ZEND_TYPE_HAS_LIST(info->type) && !ZEND_TYPE_USES_ARENA(info->type)) {
    pefree(ZEND_TYPE_LIST(info->type), 1);
  }
  pefree(info, 1);
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
    zend_property_info* info = parent->properties_info_table[i];
    zval* slot = AppendPropertySlot(ce, info);
    const zval* parent_default = &parent->default_properties_table[i];
    CopyDefault(slot, parent_default);
    Z_PROP_FLAG_P(slot) = Z_PROP_FLAG_P(parent_default);
    zend_hash_update_ptr(&ce->properties_info, info->name, info);
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
    zend_property_info* info = ce->properties_info_table[i];
    if (info->ce == ce) FreePropertyInfo(info);
  }
  zend_hash_destroy(&ce->properties_info);
  pefree(ce->default_properties_table, 1);
  pefree(ce->properties_info_table, 1);
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
  zend_hash_init(&ce->properties_info, 8, nullptr, nullptr, true);
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

zend_property_info* zend_declare_typed_property(zend_class_entry* ce,
                                                zend_string* name,
                                                zval* property, int access_type,
                                                zend_string* doc_comment,
                                                zend_type type) {
  if (access_type & ZEND_ACC_STATIC) {
    mock_zend::internal::Unsupported("zend_declare_typed_property",
                                     "it has no static properties");
    zval_ptr_dtor(property);
    return nullptr;
  }
  if (!(access_type & ZEND_ACC_PPP_MASK)) access_type |= ZEND_ACC_PUBLIC;
  auto* info = static_cast<zend_property_info*>(
      __zend_calloc(1, sizeof(zend_property_info)));
  info->flags = static_cast<uint32_t>(access_type);
  info->name = zend_string_init_interned(ZSTR_VAL(name), ZSTR_LEN(name), true);
  info->doc_comment = doc_comment;
  info->ce = ce;
  info->type = type;
  info->prototype = info;
  zval* slot;
  auto* existing = static_cast<zend_property_info*>(
      zend_hash_find_ptr(&ce->properties_info, info->name));
  if (existing != nullptr) {  // a redeclaration takes over the slot
    const uint32_t num = OBJ_PROP_TO_NUM(existing->offset);
    info->offset = existing->offset;
    slot = &ce->default_properties_table[num];
    zval_ptr_dtor(slot);
    ce->properties_info_table[num] = info;
    if (existing->ce == ce) FreePropertyInfo(existing);
  } else {
    info->offset = OBJ_PROP_TO_OFFSET(ce->default_properties_count);
    slot = AppendPropertySlot(ce, info);
  }
  TakeDefault(slot, property);
  Z_PROP_FLAG_P(slot) = Z_ISUNDEF_P(slot) ? IS_PROP_UNINIT : 0;
  zend_hash_update_ptr(&ce->properties_info, info->name, info);
  return info;
}

void zend_declare_property_ex(zend_class_entry* ce, zend_string* name,
                              zval* property, int access_type,
                              zend_string* doc_comment) {
  zend_declare_typed_property(ce, name, property, access_type, doc_comment,
                              zend_type ZEND_TYPE_INIT_NONE(0));
}

void zend_declare_property(zend_class_entry* ce, const char* name,
                           size_t name_length, zval* property,
                           int access_type) {
  zend_string* key = zend_string_init_interned(name, name_length, true);
  zend_declare_property_ex(ce, key, property, access_type, nullptr);
}

void zend_declare_property_null(zend_class_entry* ce, const char* name,
                                size_t name_length, int access_type) {
  zval value;
  ZVAL_NULL(&value);
  zend_declare_property(ce, name, name_length, &value, access_type);
}

void zend_declare_property_bool(zend_class_entry* ce, const char* name,
                                size_t name_length, zend_long value,
                                int access_type) {
  zval tmp;
  ZVAL_BOOL(&tmp, value);
  zend_declare_property(ce, name, name_length, &tmp, access_type);
}

void zend_declare_property_long(zend_class_entry* ce, const char* name,
                                size_t name_length, zend_long value,
                                int access_type) {
  zval tmp;
  ZVAL_LONG(&tmp, value);
  zend_declare_property(ce, name, name_length, &tmp, access_type);
}

void zend_declare_property_double(zend_class_entry* ce, const char* name,
                                  size_t name_length, double value,
                                  int access_type) {
  zval tmp;
  ZVAL_DOUBLE(&tmp, value);
  zend_declare_property(ce, name, name_length, &tmp, access_type);
}

void zend_declare_property_string(zend_class_entry* ce, const char* name,
                                  size_t name_length, const char* value,
                                  int access_type) {
  zval tmp;
  ZVAL_STR(&tmp, zend_string_init_interned(value, strlen(value), true));
  zend_declare_property(ce, name, name_length, &tmp, access_type);
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

zend_property_info* FindPropertyInfo(const zend_class_entry* ce,
                                     const char* name, size_t len) {
  return static_cast<zend_property_info*>(zend_hash_str_find_ptr(
      const_cast<HashTable*>(&ce->properties_info), name, len));
}

zval* PropertySlot(zend_object* object, const char* name, size_t len) {
  const zend_property_info* info = FindPropertyInfo(object->ce, name, len);
  return info != nullptr ? OBJ_PROP(object, info->offset) : nullptr;
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
