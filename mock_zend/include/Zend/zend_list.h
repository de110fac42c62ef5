/*
 * zend-async-ref: mock Zend engine.
 *
 * Resources: a pointer tagged with a registered type, refcounted like any
 * zval payload. A type is registered once with its destructor; when the last
 * reference to a resource goes, or it is closed explicitly, the destructor
 * runs once with the resource (ptr still set), then ptr becomes NULL and the
 * type -1 (the resource is closed but may still be referenced).
 *
 * Differences from PHP: there is no per-request list of resources, so a
 * resource nobody releases is reported as a leaked block by the request's
 * leak check instead of being closed at request end; persistent resources
 * are not provided.
 *
 * Threading: the engine's thread.
 */
#ifndef ZEND_LIST_H
#define ZEND_LIST_H

#include "zend_types.h"

BEGIN_EXTERN_C()

typedef void (*rsrc_dtor_func_t)(zend_resource *res);
#define ZEND_RSRC_DTOR_FUNC(name) void name(zend_resource *res)

/* Registers a resource type; returns its id (>= 1). `pld` (persistent
 * destructor) is accepted for PHP's signature and not used. */
ZEND_API int zend_register_list_destructors_ex(rsrc_dtor_func_t ld,
                                               rsrc_dtor_func_t pld,
                                               const char *type_name,
                                               int module_number);
/* A new resource (refcount 1, owned by the caller) of `type` wrapping ptr. */
ZEND_API zend_resource *zend_register_resource(void *rsrc_pointer,
                                               int rsrc_type);
/* Runs the destructor now (once) and closes the resource. */
ZEND_API void zend_list_close(zend_resource *res);
/* Drops one reference (destroying the resource on the last). */
ZEND_API void zend_list_delete(zend_resource *res);
/* The registered name of `res`'s type, or NULL. */
ZEND_API const char *zend_rsrc_list_get_rsrc_type(zend_resource *res);

/* The pointer of `res` when its type is resource_type (1 or 2); otherwise
 * NULL, and with a resource_type_name a TypeError "supplied resource is not
 * a valid <name> resource" is thrown. The _ex forms take a zval and, for
 * something that is not a resource, throw "Supplied resource is not a valid
 * <name> resource" (with a name) and return NULL. */
ZEND_API void *zend_fetch_resource(zend_resource *res,
                                   const char *resource_type_name,
                                   int resource_type);
ZEND_API void *zend_fetch_resource2(zend_resource *res,
                                    const char *resource_type_name,
                                    int resource_type1, int resource_type2);
ZEND_API void *zend_fetch_resource_ex(zval *res, const char *resource_type_name,
                                      int resource_type);
ZEND_API void *zend_fetch_resource2_ex(zval *res,
                                       const char *resource_type_name,
                                       int resource_type1, int resource_type2);

END_EXTERN_C()

#endif /* ZEND_LIST_H */
