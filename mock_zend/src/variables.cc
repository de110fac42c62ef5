// zend-async-ref: mock Zend engine. Destroying values (zend_variables.h).
//
// rc_dtor_func frees a refcounted value whose refcount reached zero,
// dispatching on its GC type. There is no root buffer: a value that stays
// referenced only from a cycle is found by zend_gc_collect_cycles().

#include "engine_internal.h"

extern "C" {
#include "zend_ast.h"
#include "zend_list.h"
}

extern "C" {

void rc_dtor_func(zend_refcounted* p) {
  switch (GC_TYPE(p)) {
    case IS_STRING: {
      auto* str = reinterpret_cast<zend_string*>(p);
      pefree(str, (GC_FLAGS(str) & IS_STR_PERSISTENT) != 0);
      break;
    }
    case IS_ARRAY:
      zend_array_destroy(reinterpret_cast<zend_array*>(p));
      break;
    case IS_OBJECT:
      zend_objects_store_del(reinterpret_cast<zend_object*>(p));
      break;
    case IS_REFERENCE: {
      auto* ref = reinterpret_cast<zend_reference*>(p);
      zval_ptr_dtor(&ref->val);
      efree(ref);
      break;
    }
    case IS_RESOURCE:
      // Its type's destructor runs first (zend_list.h).
      zend_list_close(reinterpret_cast<zend_resource*>(p));
      efree(p);
      break;
    case IS_CONSTANT_AST:
      zend_ast_ref_destroy(reinterpret_cast<zend_ast_ref*>(p));
      break;
    default:
      break;
  }
}

void zval_ptr_dtor(zval* zval_ptr) {
  if (Z_REFCOUNTED_P(zval_ptr)) {
    zend_refcounted* counted = Z_COUNTED_P(zval_ptr);
    if (GC_DELREF(counted) == 0) rc_dtor_func(counted);
  }
}

void zval_internal_ptr_dtor(zval* zval_ptr) { zval_ptr_dtor(zval_ptr); }

void zval_add_ref(zval* p) { Z_TRY_ADDREF_P(p); }

}  // extern "C"
