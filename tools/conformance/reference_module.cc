// The entry point of the reference extension built as a conformance
// implementation library (zend_async_ref/conformance.h): the module whose
// MINIT registers core/'s scheduler, reactor and pool.

#include "core/extension.h"

extern "C" {
#include "zend_async_ref/conformance.h"
}

extern "C" ZEND_ASYNC_CONFORMANCE_EXPORT zend_module_entry*
zend_async_conformance_module(void) {
  return &zar_async_module_entry;
}
