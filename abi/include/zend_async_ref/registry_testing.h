/*
 * zend-async-ref: registry control for tests and tools. Not part of the
 * upstream ABI.
 *
 * zend_async_api_shutdown() resets only what upstream resets (module names
 * of four groups, two pointers), which is right for a process but leaves
 * the previous implementation's function pointers and registration locks
 * behind. Test fixtures and the conformance runner, which register several
 * implementations in one process, call zend_async_ref_reset_registry() to
 * return every group to its just-started state.
 */
#ifndef ZEND_ASYNC_REF_REGISTRY_TESTING_H
#define ZEND_ASYNC_REF_REGISTRY_TESTING_H

#include "Zend/zend_async_API.h"

BEGIN_EXTERN_C()

/* Every exported function pointer back to its default (stub, built-in
 * default or NULL, as at process start), every module name cleared, every
 * registration lock released. Does not touch the globals. */
ZEND_API void zend_async_ref_reset_registry(void);

END_EXTERN_C()

#endif /* ZEND_ASYNC_REF_REGISTRY_TESTING_H */
