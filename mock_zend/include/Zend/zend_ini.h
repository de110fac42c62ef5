/*
 * zend-async-ref: mock Zend engine. INI settings (PHP's zend_ini.h).
 *
 * Real for the directives modules register: REGISTER_INI_ENTRIES() (in
 * MINIT) adds a module's ZEND_INI_BEGIN list to EG(ini_directives), each
 * directive with its default value (the mock reads no php.ini), and calls
 * its on_modify handler at ZEND_INI_STAGE_STARTUP, so OnUpdateBool and the
 * other standard handlers write the module's globals;
 * UNREGISTER_INI_ENTRIES() (in MSHUTDOWN) removes them, and module
 * shutdown frees whatever is left. The lookups read the registered value:
 * zend_ini_long/_double parse it (ZEND_STRTOL base 0 / strtod), the
 * string forms return it. A name no module registered is unknown, as in
 * PHP: 0, 0.0 or NULL, and *exists false. The engine registers no core
 * directives (error_reporting, memory_limit, ...), and nothing changes a
 * value after startup (no ini_set, no .htaccess).
 */
#ifndef ZEND_INI_H
#define ZEND_INI_H

#include "zend_types.h"

/* Where a setting may be changed. */
#define ZEND_INI_USER (1 << 0)
#define ZEND_INI_PERDIR (1 << 1)
#define ZEND_INI_SYSTEM (1 << 2)
#define ZEND_INI_ALL (ZEND_INI_USER | ZEND_INI_PERDIR | ZEND_INI_SYSTEM)

#define ZEND_INI_STAGE_STARTUP (1 << 0)
#define ZEND_INI_STAGE_SHUTDOWN (1 << 1)
#define ZEND_INI_STAGE_ACTIVATE (1 << 2)
#define ZEND_INI_STAGE_DEACTIVATE (1 << 3)
#define ZEND_INI_STAGE_RUNTIME (1 << 4)
#define ZEND_INI_STAGE_HTACCESS (1 << 5)

#define ZEND_INI_DISPLAY_ORIG 1
#define ZEND_INI_DISPLAY_ACTIVE 2

BEGIN_EXTERN_C()

typedef struct _zend_ini_entry zend_ini_entry;

#define ZEND_INI_MH(name)                                         \
  zend_result name(zend_ini_entry *entry, zend_string *new_value, \
                   void *mh_arg1, void *mh_arg2, void *mh_arg3, int stage)
#define ZEND_INI_DISP(name) \
  ZEND_COLD void name(zend_ini_entry *ini_entry, int type)

/* One directive of a ZEND_INI_BEGIN list, with PHP's fields and order. */
typedef struct _zend_ini_entry_def {
  const char *name;
  ZEND_INI_MH((*on_modify));
  void *mh_arg1;
  void *mh_arg2;
  void *mh_arg3;
  const char *value;
  void (*displayer)(zend_ini_entry *ini_entry, int type);
  uint32_t value_length;
  uint16_t name_length;
  uint8_t modifiable;
} zend_ini_entry_def;

/* A registered directive, with PHP's fields and order. */
struct _zend_ini_entry {
  zend_string *name;
  ZEND_INI_MH((*on_modify));
  void *mh_arg1;
  void *mh_arg2;
  void *mh_arg3;
  zend_string *value;
  zend_string *orig_value;
  void (*displayer)(zend_ini_entry *ini_entry, int type);
  int module_number;
  uint8_t modifiable;
  uint8_t orig_modifiable;
  uint8_t modified;
};

/* Registers `ini_entry` (ended by an entry with a NULL name) for
 * `module_number`; FAILURE, with nothing of the list registered, when a
 * name is taken. */
ZEND_API zend_result zend_register_ini_entries_ex(
    const zend_ini_entry_def *ini_entry, int module_number, int module_type);
ZEND_API zend_result zend_register_ini_entries(
    const zend_ini_entry_def *ini_entry, int module_number);
ZEND_API void zend_unregister_ini_entries_ex(int module_number,
                                             int module_type);
ZEND_API void zend_unregister_ini_entries(int module_number);

/* "1", "on", "yes" and "true" (any case) are true; otherwise the number
 * the string starts with, non-zero being true. */
ZEND_API bool zend_ini_parse_bool(zend_string *str);

/* The standard handlers: the value, parsed, into the field at offset
 * mh_arg1 of the struct at mh_arg2 (ZEND_INI_GET_ADDR). */
ZEND_API ZEND_INI_MH(OnUpdateBool);
ZEND_API ZEND_INI_MH(OnUpdateLong);
ZEND_API ZEND_INI_MH(OnUpdateLongGEZero);
ZEND_API ZEND_INI_MH(OnUpdateReal);
ZEND_API ZEND_INI_MH(OnUpdateString);
ZEND_API ZEND_INI_MH(OnUpdateStringUnempty);
/* The displayer of STD_ZEND_INI_BOOLEAN directives: "On" or "Off". */
ZEND_API ZEND_INI_DISP(zend_ini_boolean_displayer_cb);

ZEND_API zend_long zend_ini_long(const char *name, size_t name_length,
                                 bool orig);
ZEND_API double zend_ini_double(const char *name, size_t name_length,
                                bool orig);
ZEND_API char *zend_ini_string(const char *name, size_t name_length, bool orig);
ZEND_API char *zend_ini_string_ex(const char *name, size_t name_length,
                                  bool orig, bool *exists);
ZEND_API zend_string *zend_ini_str(const char *name, size_t name_length,
                                   bool orig);
ZEND_API zend_string *zend_ini_str_ex(const char *name, size_t name_length,
                                      bool orig, bool *exists);
ZEND_API zend_string *zend_ini_get_value(zend_string *name);

END_EXTERN_C()

/* The lookups by a string literal's name (PHP 8.6). */
#define zend_ini_long_literal(name) \
  zend_ini_long((name), sizeof("" name) - 1, 0)
#define zend_ini_double_literal(name) \
  zend_ini_double((name), sizeof("" name) - 1, 0)
#define zend_ini_str_literal(name) zend_ini_str((name), sizeof("" name) - 1, 0)
#define zend_ini_string_literal(name) \
  zend_ini_string((name), sizeof("" name) - 1, 0)

#define INI_INT(name) zend_ini_long((name), sizeof(name) - 1, 0)
#define INI_FLT(name) zend_ini_double((name), sizeof(name) - 1, 0)
#define INI_STR(name) zend_ini_string_ex((name), sizeof(name) - 1, 0, NULL)
#define INI_BOOL(name) ((bool)INI_INT(name))
#define INI_ORIG_INT(name) zend_ini_long((name), sizeof(name) - 1, 1)
#define INI_ORIG_FLT(name) zend_ini_double((name), sizeof(name) - 1, 1)
#define INI_ORIG_STR(name) zend_ini_string((name), sizeof(name) - 1, 1)
#define INI_ORIG_BOOL(name) ((bool)INI_ORIG_INT(name))

#define ZEND_INI_GET_BASE() ((char *)mh_arg2)
#define ZEND_INI_GET_ADDR() (ZEND_INI_GET_BASE() + (size_t)mh_arg1)

#define ZEND_INI_BEGIN() static const zend_ini_entry_def ini_entries[] = {
#define ZEND_INI_END()                                  \
  { NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0 } \
  }                                                     \
  ;

#define ZEND_INI_ENTRY3_EX(name, default_value, modifiable, on_modify, arg1, \
                           arg2, arg3, displayer)                            \
  {name,                                                                     \
   on_modify,                                                                \
   arg1,                                                                     \
   arg2,                                                                     \
   arg3,                                                                     \
   default_value,                                                            \
   displayer,                                                                \
   sizeof(default_value) - 1,                                                \
   sizeof(name) - 1,                                                         \
   modifiable},
#define ZEND_INI_ENTRY3(name, default_value, modifiable, on_modify, arg1,    \
                        arg2, arg3)                                          \
  ZEND_INI_ENTRY3_EX(name, default_value, modifiable, on_modify, arg1, arg2, \
                     arg3, NULL)
#define ZEND_INI_ENTRY2_EX(name, default_value, modifiable, on_modify, arg1, \
                           arg2, displayer)                                  \
  ZEND_INI_ENTRY3_EX(name, default_value, modifiable, on_modify, arg1, arg2, \
                     NULL, displayer)
#define ZEND_INI_ENTRY2(name, default_value, modifiable, on_modify, arg1,    \
                        arg2)                                                \
  ZEND_INI_ENTRY2_EX(name, default_value, modifiable, on_modify, arg1, arg2, \
                     NULL)
#define ZEND_INI_ENTRY1_EX(name, default_value, modifiable, on_modify, arg1, \
                           displayer)                                        \
  ZEND_INI_ENTRY3_EX(name, default_value, modifiable, on_modify, arg1, NULL, \
                     NULL, displayer)
#define ZEND_INI_ENTRY1(name, default_value, modifiable, on_modify, arg1) \
  ZEND_INI_ENTRY1_EX(name, default_value, modifiable, on_modify, arg1, NULL)
#define ZEND_INI_ENTRY_EX(name, default_value, modifiable, on_modify,        \
                          displayer)                                         \
  ZEND_INI_ENTRY3_EX(name, default_value, modifiable, on_modify, NULL, NULL, \
                     NULL, displayer)
#define ZEND_INI_ENTRY(name, default_value, modifiable, on_modify) \
  ZEND_INI_ENTRY_EX(name, default_value, modifiable, on_modify, NULL)

/* The non-ZTS forms: mh_arg1 the field's offset, mh_arg2 the globals. */
#define STD_ZEND_INI_ENTRY(name, default_value, modifiable, on_modify, \
                           property_name, struct_type, struct_ptr)     \
  ZEND_INI_ENTRY2(name, default_value, modifiable, on_modify,          \
                  (void *)XtOffsetOf(struct_type, property_name),      \
                  (void *)&struct_ptr)
#define STD_ZEND_INI_ENTRY_EX(name, default_value, modifiable, on_modify, \
                              property_name, struct_type, struct_ptr,     \
                              displayer)                                  \
  ZEND_INI_ENTRY2_EX(name, default_value, modifiable, on_modify,          \
                     (void *)XtOffsetOf(struct_type, property_name),      \
                     (void *)&struct_ptr, displayer)
#define STD_ZEND_INI_BOOLEAN(name, default_value, modifiable, on_modify, \
                             property_name, struct_type, struct_ptr)     \
  ZEND_INI_ENTRY3_EX(name, default_value, modifiable, on_modify,         \
                     (void *)XtOffsetOf(struct_type, property_name),     \
                     (void *)&struct_ptr, NULL, zend_ini_boolean_displayer_cb)

#define REGISTER_INI_ENTRIES() \
  zend_register_ini_entries_ex(ini_entries, module_number, type)
#define UNREGISTER_INI_ENTRIES() \
  zend_unregister_ini_entries_ex(module_number, type)

#endif /* ZEND_INI_H */
