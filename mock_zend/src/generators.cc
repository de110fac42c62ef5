// zend-async-ref: mock Zend engine. Generators (zend_generators.h).
//
// The mock runs no PHP code, so no generator exists: the class entry is
// NULL and every function fails loudly (an E_CORE_ERROR naming itself,
// see Unsupported in engine_internal.h) without touching its argument.

#include "engine_internal.h"

extern "C" {
#include "zend_generators.h"
}

namespace {

void Unsupported(const char* function) {
  mock_zend::internal::Unsupported(function, "it runs no PHP generators");
}

}  // namespace

extern "C" {

zend_class_entry* zend_ce_generator = nullptr;

void zend_generator_close(zend_generator* generator, bool finished_execution) {
  (void)generator;
  (void)finished_execution;
  Unsupported("zend_generator_close");
}

void zend_generator_resume(zend_generator* generator) {
  (void)generator;
  Unsupported("zend_generator_resume");
}

HashTable* zend_generator_frame_gc(zend_get_gc_buffer* gc_buffer,
                                   zend_generator* generator) {
  (void)gc_buffer;
  (void)generator;
  Unsupported("zend_generator_frame_gc");
  return nullptr;
}

}  // extern "C"
