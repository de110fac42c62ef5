// zend-async-ref: mock PHP. php.ini lookups (main/php_ini.h): the mock
// reads no php.ini, so nothing is ever set there; and the INI directives
// modules register (Zend/zend_ini.h), kept in EG(ini_directives) with their
// default values.

#include <vector>

#include "engine_internal.h"

extern "C" {
#include "ext/standard/info.h"
#include "main/php_ini.h"
}

namespace {

const zend_ini_entry* FindIniEntry(const char* name, size_t len) {
  if (EG(ini_directives) == nullptr) return nullptr;
  return static_cast<const zend_ini_entry*>(
      zend_hash_str_find_ptr(EG(ini_directives), name, len));
}

// The value shown for ZEND_INI_DISPLAY_ORIG (the value before any change)
// or ZEND_INI_DISPLAY_ACTIVE.
zend_string* ShownValue(const zend_ini_entry* entry, int type) {
  return type == ZEND_INI_DISPLAY_ORIG && entry->modified ? entry->orig_value
                                                          : entry->value;
}

const char* BooleanDisplay(const zend_ini_entry* entry, int type) {
  zend_string* value = ShownValue(entry, type);
  return value != nullptr && zend_ini_parse_bool(value) ? "On" : "Off";
}

// A directive's value as phpinfo() shows it: "On"/"Off" for a boolean
// directive, "no value" for an empty one. (A module's own displayer is not
// called: the mock's phpinfo() prints plain text rows.)
const char* DisplayValue(const zend_ini_entry* entry, int type) {
  if (entry->displayer == zend_ini_boolean_displayer_cb) {
    return BooleanDisplay(entry, type);
  }
  zend_string* value = ShownValue(entry, type);
  return value != nullptr && ZSTR_LEN(value) != 0 ? ZSTR_VAL(value)
                                                  : "no value";
}

// PHP's quantities: an integer (ZEND_STRTOL base 0) with an optional K, M
// or G suffix (any case) multiplying it by 1024, 1024^2 or 1024^3.
zend_long ParseLong(zend_string* value) {
  if (value == nullptr) return 0;
  char* end = nullptr;
  zend_long number = ZEND_STRTOL(ZSTR_VAL(value), &end, 0);
  switch (*end) {
    case 'g':
    case 'G':
      number *= 1024;
      [[fallthrough]];
    case 'm':
    case 'M':
      number *= 1024;
      [[fallthrough]];
    case 'k':
    case 'K':
      number *= 1024;
      break;
    default:
      break;
  }
  return number;
}

// Removes (and frees) the directives `matches` selects.
template <typename Matches>
void UnregisterIniEntries(Matches matches) {
  if (EG(ini_directives) == nullptr) return;
  std::vector<zend_string*> names;
  void* ptr;
  ZEND_HASH_FOREACH_PTR(EG(ini_directives), ptr) {
    auto* entry = static_cast<zend_ini_entry*>(ptr);
    if (matches(entry)) names.push_back(entry->name);
  }
  ZEND_HASH_FOREACH_END();
  for (zend_string* name : names) {
    void* entry = zend_hash_find_ptr(EG(ini_directives), name);
    zend_hash_del(EG(ini_directives), name);
    pefree(entry, 1);
  }
}

}  // namespace

extern "C" {

zval* cfg_get_entry_ex(zend_string* name) {
  (void)name;
  return nullptr;
}

zval* cfg_get_entry(const char* name, size_t name_length) {
  (void)name;
  (void)name_length;
  return nullptr;
}

int cfg_get_long(const char* varname, zend_long* result) {
  (void)varname;
  *result = 0;
  return FAILURE;
}

int cfg_get_double(const char* varname, double* result) {
  (void)varname;
  *result = 0.0;
  return FAILURE;
}

int cfg_get_string(const char* varname, char** result) {
  (void)varname;
  *result = nullptr;
  return FAILURE;
}

zend_result zend_register_ini_entries_ex(const zend_ini_entry_def* ini_entry,
                                         int module_number, int module_type) {
  (void)module_type;
  HashTable* directives = EG(ini_directives);
  if (directives == nullptr) return FAILURE;
  for (const zend_ini_entry_def* def = ini_entry; def->name != nullptr; def++) {
    auto* entry =
        static_cast<zend_ini_entry*>(pecalloc(1, sizeof(zend_ini_entry), 1));
    entry->name = zend_string_init_interned(def->name, def->name_length, true);
    entry->on_modify = def->on_modify;
    entry->mh_arg1 = def->mh_arg1;
    entry->mh_arg2 = def->mh_arg2;
    entry->mh_arg3 = def->mh_arg3;
    entry->value =
        def->value != nullptr
            ? zend_string_init_interned(def->value, def->value_length, true)
            : nullptr;
    entry->displayer = def->displayer;
    entry->module_number = module_number;
    entry->modifiable = def->modifiable;
    entry->orig_modifiable = def->modifiable;
    if (zend_hash_add_ptr(directives, entry->name, entry) == nullptr) {
      pefree(entry, 1);
      zend_unregister_ini_entries(module_number);
      return FAILURE;
    }
    if (entry->on_modify != nullptr) {
      entry->on_modify(entry, entry->value, entry->mh_arg1, entry->mh_arg2,
                       entry->mh_arg3, ZEND_INI_STAGE_STARTUP);
    }
  }
  return SUCCESS;
}

zend_result zend_register_ini_entries(const zend_ini_entry_def* ini_entry,
                                      int module_number) {
  return zend_register_ini_entries_ex(ini_entry, module_number,
                                      MODULE_PERSISTENT);
}

void zend_unregister_ini_entries_ex(int module_number, int module_type) {
  (void)module_type;
  UnregisterIniEntries([module_number](const zend_ini_entry* entry) {
    return entry->module_number == module_number;
  });
}

void zend_unregister_ini_entries(int module_number) {
  zend_unregister_ini_entries_ex(module_number, MODULE_PERSISTENT);
}

bool zend_ini_parse_bool(zend_string* str) {
  if (zend_string_equals_literal_ci(str, "true") ||
      zend_string_equals_literal_ci(str, "yes") ||
      zend_string_equals_literal_ci(str, "on")) {
    return true;
  }
  return atoi(ZSTR_VAL(str)) != 0;
}

ZEND_INI_MH(OnUpdateBool) {
  (void)entry;
  (void)mh_arg3;
  (void)stage;
  *reinterpret_cast<bool*>(ZEND_INI_GET_ADDR()) =
      new_value != nullptr && zend_ini_parse_bool(new_value);
  return SUCCESS;
}

ZEND_INI_MH(OnUpdateLong) {
  (void)entry;
  (void)mh_arg3;
  (void)stage;
  *reinterpret_cast<zend_long*>(ZEND_INI_GET_ADDR()) = ParseLong(new_value);
  return SUCCESS;
}

ZEND_INI_MH(OnUpdateLongGEZero) {
  const zend_long value = ParseLong(new_value);
  if (value < 0) return FAILURE;
  return OnUpdateLong(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

ZEND_INI_MH(OnUpdateReal) {
  (void)entry;
  (void)mh_arg3;
  (void)stage;
  *reinterpret_cast<double*>(ZEND_INI_GET_ADDR()) =
      new_value != nullptr ? strtod(ZSTR_VAL(new_value), nullptr) : 0.0;
  return SUCCESS;
}

ZEND_INI_MH(OnUpdateString) {
  (void)entry;
  (void)mh_arg3;
  (void)stage;
  *reinterpret_cast<char**>(ZEND_INI_GET_ADDR()) =
      new_value != nullptr ? ZSTR_VAL(new_value) : nullptr;
  return SUCCESS;
}

ZEND_INI_MH(OnUpdateStringUnempty) {
  if (new_value == nullptr || ZSTR_LEN(new_value) == 0) return FAILURE;
  return OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

ZEND_INI_DISP(zend_ini_boolean_displayer_cb) {
  php_printf("%s", BooleanDisplay(ini_entry, type));
}

zend_long zend_ini_long(const char* name, size_t name_length, bool orig) {
  zend_string* value = zend_ini_str(name, name_length, orig);
  return value != nullptr ? ZEND_STRTOL(ZSTR_VAL(value), nullptr, 0) : 0;
}

double zend_ini_double(const char* name, size_t name_length, bool orig) {
  zend_string* value = zend_ini_str(name, name_length, orig);
  return value != nullptr ? strtod(ZSTR_VAL(value), nullptr) : 0.0;
}

char* zend_ini_string(const char* name, size_t name_length, bool orig) {
  bool exists = false;
  char* value = zend_ini_string_ex(name, name_length, orig, &exists);
  if (!exists) return nullptr;
  return value != nullptr ? value : const_cast<char*>("");
}

zend_string* zend_ini_str_ex(const char* name, size_t name_length, bool orig,
                             bool* exists) {
  const zend_ini_entry* entry = FindIniEntry(name, name_length);
  if (exists != nullptr) *exists = entry != nullptr;
  if (entry == nullptr) return nullptr;
  return orig && entry->modified ? entry->orig_value : entry->value;
}

char* zend_ini_string_ex(const char* name, size_t name_length, bool orig,
                         bool* exists) {
  zend_string* value = zend_ini_str_ex(name, name_length, orig, exists);
  return value != nullptr ? ZSTR_VAL(value) : nullptr;
}

zend_string* zend_ini_str(const char* name, size_t name_length, bool orig) {
  bool exists = false;
  zend_string* value = zend_ini_str_ex(name, name_length, orig, &exists);
  if (!exists) return nullptr;
  return value != nullptr ? value : zend_empty_string;
}

zend_string* zend_ini_get_value(zend_string* name) {
  const zend_ini_entry* entry = FindIniEntry(ZSTR_VAL(name), ZSTR_LEN(name));
  if (entry == nullptr) return nullptr;
  return entry->value != nullptr ? entry->value : zend_empty_string;
}

void display_ini_entries(zend_module_entry* module) {
  if (EG(ini_directives) == nullptr) return;
  bool any = false;
  void* ptr;
  ZEND_HASH_FOREACH_PTR(EG(ini_directives), ptr) {
    auto* entry = static_cast<zend_ini_entry*>(ptr);
    if (entry->module_number != module->module_number) continue;
    if (!any) {
      php_info_print_table_start();
      php_info_print_table_header(3, "Directive", "Local Value",
                                  "Master Value");
      any = true;
    }
    php_info_print_table_row(3, ZSTR_VAL(entry->name),
                             DisplayValue(entry, ZEND_INI_DISPLAY_ACTIVE),
                             DisplayValue(entry, ZEND_INI_DISPLAY_ORIG));
  }
  ZEND_HASH_FOREACH_END();
  if (any) php_info_print_table_end();
}

}  // extern "C"

namespace mock_zend::internal {

void IniStartup() { EG(ini_directives) = NewEngineTable(16); }

void IniShutdown() {
  if (EG(ini_directives) == nullptr) return;
  UnregisterIniEntries([](const zend_ini_entry*) { return true; });
  FreeEngineTable(EG(ini_directives));
}

}  // namespace mock_zend::internal
