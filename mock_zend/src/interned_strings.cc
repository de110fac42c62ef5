// zend-async-ref: mock Zend engine. Interned strings (zend_string.h).
//
// An interned string is a persistent (malloc'd) zend_string flagged
// IS_STR_INTERNED | IS_STR_PERSISTENT, with refcount 1 that nothing ever
// changes and its hash computed up front. The table deduplicates by
// content: interning the same bytes twice returns the same pointer. The
// table is created on first use and destroyed, with every string in it, by
// php_module_shutdown(); pointers to interned strings must not be used
// after that.

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "engine_internal.h"

namespace {

// Content -> interned string. The key views the string's own bytes.
using InternTable = absl::flat_hash_map<absl::string_view, zend_string*>;

InternTable* table = nullptr;

zend_string* known_strings[ZEND_STR_LAST_KNOWN];

constexpr const char* kKnownStringText[ZEND_STR_LAST_KNOWN] = {
    "",         "message", "code",    "string", "previous",  "file",
    "line",     "trace",   "name",    "value",  "{closure}", "main",
    "function", "class",   "object",  "type",   "->",        "::",
    "args",     "unknown", "Unknown", "path",
};

zend_string* NewInterned(const char* str, size_t len) {
  auto* s = static_cast<zend_string*>(
      __zend_malloc(ZEND_MM_ALIGNED_SIZE(_ZSTR_STRUCT_SIZE(len))));
  GC_SET_REFCOUNT(s, 1);
  GC_TYPE_INFO(s) = IS_STRING | IS_STR_INTERNED | IS_STR_PERSISTENT;
  ZSTR_LEN(s) = len;
  memcpy(ZSTR_VAL(s), str, len);
  ZSTR_VAL(s)[len] = '\0';
  ZSTR_H(s) = zend_hash_func(str, len);
  return s;
}

}  // namespace

extern "C" {

zend_string** zend_known_strings = nullptr;
zend_string* zend_empty_string = nullptr;

zend_string* zend_string_init_interned(const char* str, size_t len,
                                       bool permanent) {
  (void)permanent;  // every interned string lives until module shutdown
  if (table == nullptr) table = new InternTable();
  auto found = table->find(absl::string_view(str, len));
  if (found != table->end()) return found->second;
  zend_string* s = NewInterned(str, len);
  table->emplace(absl::string_view(ZSTR_VAL(s), len), s);
  return s;
}

}  // extern "C"

namespace mock_zend::internal {

void KnownStringsStartup() {
  for (int i = 0; i < ZEND_STR_LAST_KNOWN; i++) {
    known_strings[i] = zend_string_init_interned(
        kKnownStringText[i], strlen(kKnownStringText[i]), true);
  }
  zend_known_strings = known_strings;
  zend_empty_string = known_strings[ZEND_STR_EMPTY];
}

void InternedStringsShutdown() {
  zend_known_strings = nullptr;
  zend_empty_string = nullptr;
  if (table == nullptr) return;
  for (auto& entry : *table) pefree(entry.second, 1);
  delete table;
  table = nullptr;
}

zend_string* InternLowercase(const char* name, size_t len) {
  std::string lower(name, len);
  zend_str_tolower(lower.data(), lower.size());
  return zend_string_init_interned(lower.data(), lower.size(), true);
}

}  // namespace mock_zend::internal
