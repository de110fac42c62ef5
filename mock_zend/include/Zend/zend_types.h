/*
 * zend-async-ref: mock Zend engine.
 *
 * The value model: zval, the refcounted header and the refcounted types
 * (string, array, object, reference), with PHP's field order and sizes on
 * x86-64 so that ABI structs embedding them by value (zval in wakers and
 * coroutines, HashTable in wakers) have upstream's layout.
 *
 * Ownership follows PHP: a zval holding a refcounted value owns one
 * reference; ZVAL_COPY adds one, ZVAL_COPY_VALUE moves, zval_ptr_dtor drops
 * one. IS_PTR zvals carry an opaque pointer that is never dereferenced,
 * refcounted or freed by the engine.
 */
#ifndef ZEND_TYPES_H
#define ZEND_TYPES_H

#include "zend_portability.h"

BEGIN_EXTERN_C()

typedef int64_t zend_long;
typedef uint64_t zend_ulong;
typedef int64_t zend_off_t;
typedef unsigned char zend_uchar;
typedef bool zend_bool;

typedef enum { SUCCESS = 0, FAILURE = -1 } zend_result;

typedef struct _zval_struct zval;
typedef struct _zend_refcounted zend_refcounted;
typedef struct _zend_string zend_string;
typedef struct _zend_array zend_array;
typedef struct _zend_array HashTable;
typedef struct _zend_object zend_object;
typedef struct _zend_resource zend_resource;
typedef struct _zend_reference zend_reference;
typedef struct _zend_class_entry zend_class_entry;
typedef union _zend_function zend_function;
typedef struct _zend_execute_data zend_execute_data;
typedef struct _zend_object_handlers zend_object_handlers;
typedef struct _zend_object_iterator zend_object_iterator;

typedef void (*dtor_func_t)(zval *pDest);
typedef void (*copy_ctor_func_t)(zval *pElement);

typedef union _zend_value {
  zend_long lval;
  double dval;
  zend_refcounted *counted;
  zend_string *str;
  zend_array *arr;
  zend_object *obj;
  zend_resource *res;
  zend_reference *ref;
  void *ptr;
  zend_class_entry *ce;
  zend_function *func;
  struct {
    uint32_t w1;
    uint32_t w2;
  } ww;
} zend_value;

struct _zval_struct {
  zend_value value;
  union {
    uint32_t type_info;
    struct {
      zend_uchar type;
      zend_uchar type_flags;
      union {
        uint16_t extra;
      } u;
    } v;
  } u1;
  union {
    uint32_t next;
    uint32_t num_args;
    uint32_t fe_pos;
    uint32_t constant_flags; /* zend_constants.h */
    uint32_t extra;
  } u2;
};

/* The header of every refcounted value. */
typedef struct _zend_refcounted_h {
  uint32_t refcount;
  union {
    uint32_t type_info;
  } u;
} zend_refcounted_h;

struct _zend_refcounted {
  zend_refcounted_h gc;
};

struct _zend_string {
  zend_refcounted_h gc;
  zend_ulong h; /* hash value, 0 until computed */
  size_t len;
  char val[1];
};

typedef struct _Bucket {
  zval val;
  zend_ulong h;     /* hash value (or numeric index) */
  zend_string *key; /* string key or NULL for numerics */
} Bucket;

/* An ordered hash table (PHP 8 layout). The mock keeps every table in the
 * hashed form: arData points at nTableSize buckets, preceded by
 * (uint32_t)-nTableMask hash slots, exactly as PHP lays out a hashed
 * table. Iteration order is insertion order. */
struct _zend_array {
  zend_refcounted_h gc;
  union {
    struct {
      zend_uchar flags;
      zend_uchar _unused;
      zend_uchar nIteratorsCount;
      zend_uchar _unused2;
    } v;
    uint32_t flags;
  } u;
  uint32_t nTableMask;
  union {
    uint32_t *arHash;
    Bucket *arData;
    zval *arPacked;
  };
  uint32_t nNumUsed;
  uint32_t nNumOfElements;
  uint32_t nTableSize;
  uint32_t nInternalPointer;
  zend_long nNextFreeElement;
  dtor_func_t pDestructor;
};

struct _zend_object {
  zend_refcounted_h gc;
  uint32_t handle; /* index in EG(objects_store), from 1 */
  uint32_t extra_flags;
  zend_class_entry *ce;
  const zend_object_handlers *handlers;
  HashTable *properties;
  zval properties_table[1];
};

struct _zend_resource {
  zend_refcounted_h gc;
  zend_long handle;
  int type;
  void *ptr;
};

struct _zend_reference {
  zend_refcounted_h gc;
  zval val;
  void *sources;
};

/* zval types */
#define IS_UNDEF 0
#define IS_NULL 1
#define IS_FALSE 2
#define IS_TRUE 3
#define IS_LONG 4
#define IS_DOUBLE 5
#define IS_STRING 6
#define IS_ARRAY 7
#define IS_OBJECT 8
#define IS_RESOURCE 9
#define IS_REFERENCE 10
#define IS_CONSTANT_AST 11
#define IS_INDIRECT 12
#define IS_PTR 13
#define _IS_BOOL 18
#define IS_CALLABLE 12
#define IS_ITERABLE 19
#define IS_VOID 14
#define IS_MIXED 16

#define Z_TYPE_MASK 0xff
#define Z_TYPE_FLAGS_MASK 0xff00
#define Z_TYPE_FLAGS_SHIFT 8

#define IS_TYPE_REFCOUNTED (1 << 0)
#define IS_TYPE_COLLECTABLE (1 << 1)

#define IS_INTERNED_STRING_EX IS_STRING
#define IS_STRING_EX (IS_STRING | (IS_TYPE_REFCOUNTED << Z_TYPE_FLAGS_SHIFT))
#define IS_ARRAY_EX \
  (IS_ARRAY |       \
   ((IS_TYPE_REFCOUNTED | IS_TYPE_COLLECTABLE) << Z_TYPE_FLAGS_SHIFT))
#define IS_OBJECT_EX \
  (IS_OBJECT |       \
   ((IS_TYPE_REFCOUNTED | IS_TYPE_COLLECTABLE) << Z_TYPE_FLAGS_SHIFT))
#define IS_RESOURCE_EX \
  (IS_RESOURCE | (IS_TYPE_REFCOUNTED << Z_TYPE_FLAGS_SHIFT))
#define IS_REFERENCE_EX \
  (IS_REFERENCE | (IS_TYPE_REFCOUNTED << Z_TYPE_FLAGS_SHIFT))

/* Refcounted header: type in the low 4 bits, flags above. */
#define GC_TYPE_MASK 0x0000000f
#define GC_FLAGS_MASK 0x000003f0
#define GC_INFO_MASK 0xfffffc00
#define GC_FLAGS_SHIFT 0
#define GC_INFO_SHIFT 10

#define GC_NOT_COLLECTABLE (1 << 4)
#define GC_PROTECTED (1 << 5)
#define GC_IMMUTABLE (1 << 6)
#define GC_PERSISTENT (1 << 7)
#define GC_PERSISTENT_LOCAL (1 << 8)

/* Type info of a refcounted of each type, as its creator sets it. */
#define GC_NULL (IS_NULL | (GC_NOT_COLLECTABLE << GC_FLAGS_SHIFT))
#define GC_STRING (IS_STRING | (GC_NOT_COLLECTABLE << GC_FLAGS_SHIFT))
#define GC_ARRAY IS_ARRAY
#define GC_OBJECT IS_OBJECT
#define GC_RESOURCE (IS_RESOURCE | (GC_NOT_COLLECTABLE << GC_FLAGS_SHIFT))
#define GC_REFERENCE (IS_REFERENCE | (GC_NOT_COLLECTABLE << GC_FLAGS_SHIFT))

#define IS_STR_INTERNED GC_IMMUTABLE
#define IS_STR_PERSISTENT GC_PERSISTENT
#define IS_ARRAY_IMMUTABLE GC_IMMUTABLE
#define IS_ARRAY_PERSISTENT GC_PERSISTENT
#define IS_OBJ_WEAKLY_REFERENCED GC_PERSISTENT
#define IS_OBJ_DESTRUCTOR_CALLED (1 << 8)
#define IS_OBJ_FREE_CALLED (1 << 9)

#define GC_REFCOUNT(p) (p)->gc.refcount
#define GC_SET_REFCOUNT(p, rc) ((p)->gc.refcount = (rc))
#define GC_ADDREF(p) (++(p)->gc.refcount)
#define GC_DELREF(p) (--(p)->gc.refcount)
#define GC_ADDREF_EX(p, rc) ((p)->gc.refcount += (rc))
#define GC_DELREF_EX(p, rc) ((p)->gc.refcount -= (rc))
#define GC_TRY_ADDREF(p)                             \
  do {                                               \
    if (!(GC_FLAGS(p) & GC_IMMUTABLE)) GC_ADDREF(p); \
  } while (0)
#define GC_TRY_DELREF(p)                             \
  do {                                               \
    if (!(GC_FLAGS(p) & GC_IMMUTABLE)) GC_DELREF(p); \
  } while (0)
#define GC_TYPE_INFO(p) (p)->gc.u.type_info
#define GC_TYPE(p) (GC_TYPE_INFO(p) & GC_TYPE_MASK)
#define GC_FLAGS(p) (GC_TYPE_INFO(p) & GC_FLAGS_MASK)
#define GC_ADD_FLAGS(p, flags) ((p)->gc.u.type_info |= (flags))
#define GC_DEL_FLAGS(p, flags) ((p)->gc.u.type_info &= ~(flags))
#define GC_SET_FLAGS(p, flags) \
  ((p)->gc.u.type_info = ((p)->gc.u.type_info & ~GC_FLAGS_MASK) | (flags))
#define GC_IS_RECURSIVE(p) 0

/* zval accessors */
#define Z_TYPE(zval) ((zval).u1.v.type)
#define Z_TYPE_P(zval_p) Z_TYPE(*(zval_p))
#define Z_TYPE_FLAGS(zval) ((zval).u1.v.type_flags)
#define Z_TYPE_FLAGS_P(zval_p) Z_TYPE_FLAGS(*(zval_p))
#define Z_TYPE_INFO(zval) ((zval).u1.type_info)
#define Z_TYPE_INFO_P(zval_p) Z_TYPE_INFO(*(zval_p))

#define Z_REFCOUNTED(zval) (Z_TYPE_FLAGS(zval) & IS_TYPE_REFCOUNTED)
#define Z_REFCOUNTED_P(zval_p) Z_REFCOUNTED(*(zval_p))
#define Z_COLLECTABLE(zval) (Z_TYPE_FLAGS(zval) & IS_TYPE_COLLECTABLE)
#define Z_COLLECTABLE_P(zval_p) Z_COLLECTABLE(*(zval_p))

#define Z_ISUNDEF(zval) (Z_TYPE(zval) == IS_UNDEF)
#define Z_ISUNDEF_P(zval_p) Z_ISUNDEF(*(zval_p))
#define Z_ISNULL(zval) (Z_TYPE(zval) == IS_NULL)
#define Z_ISNULL_P(zval_p) Z_ISNULL(*(zval_p))
#define Z_ISREF(zval) (Z_TYPE(zval) == IS_REFERENCE)
#define Z_ISREF_P(zval_p) Z_ISREF(*(zval_p))

#define Z_LVAL(zval) (zval).value.lval
#define Z_LVAL_P(zval_p) Z_LVAL(*(zval_p))
#define Z_DVAL(zval) (zval).value.dval
#define Z_DVAL_P(zval_p) Z_DVAL(*(zval_p))
#define Z_STR(zval) (zval).value.str
#define Z_STR_P(zval_p) Z_STR(*(zval_p))
#define Z_STRVAL(zval) ZSTR_VAL(Z_STR(zval))
#define Z_STRVAL_P(zval_p) Z_STRVAL(*(zval_p))
#define Z_STRLEN(zval) ZSTR_LEN(Z_STR(zval))
#define Z_STRLEN_P(zval_p) Z_STRLEN(*(zval_p))
#define Z_ARR(zval) (zval).value.arr
#define Z_ARR_P(zval_p) Z_ARR(*(zval_p))
#define Z_ARRVAL(zval) Z_ARR(zval)
#define Z_ARRVAL_P(zval_p) Z_ARRVAL(*(zval_p))
#define Z_OBJ(zval) (zval).value.obj
#define Z_OBJ_P(zval_p) Z_OBJ(*(zval_p))
#define Z_OBJ_HT(zval) Z_OBJ(zval)->handlers
#define Z_OBJ_HT_P(zval_p) Z_OBJ_HT(*(zval_p))
#define Z_OBJ_HANDLER(zval, hf) Z_OBJ_HT((zval))->hf
#define Z_OBJ_HANDLER_P(zv_p, hf) Z_OBJ_HANDLER(*(zv_p), hf)
#define Z_OBJ_HANDLE(zval) (Z_OBJ((zval)))->handle
#define Z_OBJ_HANDLE_P(zval_p) Z_OBJ_HANDLE(*(zval_p))
#define Z_OBJCE(zval) (Z_OBJ(zval)->ce)
#define Z_OBJCE_P(zval_p) Z_OBJCE(*(zval_p))
#define Z_RES(zval) (zval).value.res
#define Z_RES_P(zval_p) Z_RES(*(zval_p))
#define Z_REF(zval) (zval).value.ref
#define Z_REF_P(zval_p) Z_REF(*(zval_p))
#define Z_REFVAL(zval) (&Z_REF(zval)->val)
#define Z_REFVAL_P(zval_p) Z_REFVAL(*(zval_p))
#define Z_CONSTANT_FLAGS(zval) (zval).u2.constant_flags
#define Z_CONSTANT_FLAGS_P(zval_p) Z_CONSTANT_FLAGS(*(zval_p))
#define Z_PTR(zval) (zval).value.ptr
#define Z_PTR_P(zval_p) Z_PTR(*(zval_p))
#define Z_COUNTED(zval) (zval).value.counted
#define Z_COUNTED_P(zval_p) Z_COUNTED(*(zval_p))
#define Z_CE(zval) (zval).value.ce
#define Z_CE_P(zval_p) Z_CE(*(zval_p))
#define Z_FUNC(zval) (zval).value.func
#define Z_FUNC_P(zval_p) Z_FUNC(*(zval_p))

#define Z_REFCOUNT_P(pz) GC_REFCOUNT(Z_COUNTED_P(pz))
#define Z_REFCOUNT(z) Z_REFCOUNT_P(&(z))
#define Z_ADDREF_P(pz) GC_ADDREF(Z_COUNTED_P(pz))
#define Z_ADDREF(z) Z_ADDREF_P(&(z))
#define Z_DELREF_P(pz) GC_DELREF(Z_COUNTED_P(pz))
#define Z_DELREF(z) Z_DELREF_P(&(z))
#define Z_TRY_ADDREF_P(pz)                      \
  do {                                          \
    if (Z_REFCOUNTED_P((pz))) Z_ADDREF_P((pz)); \
  } while (0)
#define Z_TRY_ADDREF(z) Z_TRY_ADDREF_P(&(z))
#define Z_TRY_DELREF_P(pz)                      \
  do {                                          \
    if (Z_REFCOUNTED_P((pz))) Z_DELREF_P((pz)); \
  } while (0)
#define Z_TRY_DELREF(z) Z_TRY_DELREF_P(&(z))

/* A new reference (refcount 1) holding `r`'s value, as a by-reference
 * argument or a variable bound with & holds it. */
#define ZVAL_NEW_REF(z, r)                                                    \
  do {                                                                        \
    zend_reference *_ref = (zend_reference *)emalloc(sizeof(zend_reference)); \
    GC_SET_REFCOUNT(_ref, 1);                                                 \
    GC_TYPE_INFO(_ref) = GC_REFERENCE;                                        \
    ZVAL_COPY_VALUE(&_ref->val, r);                                           \
    _ref->sources = NULL;                                                     \
    Z_REF_P(z) = _ref;                                                        \
    Z_TYPE_INFO_P(z) = IS_REFERENCE_EX;                                       \
  } while (0)

#define ZVAL_DEREF(z)               \
  do {                              \
    if (UNEXPECTED(Z_ISREF_P(z))) { \
      (z) = Z_REFVAL_P(z);          \
    }                               \
  } while (0)

/* zval setters */
#define ZVAL_UNDEF(z) (Z_TYPE_INFO_P(z) = IS_UNDEF)
#define ZVAL_NULL(z) (Z_TYPE_INFO_P(z) = IS_NULL)
#define ZVAL_FALSE(z) (Z_TYPE_INFO_P(z) = IS_FALSE)
#define ZVAL_TRUE(z) (Z_TYPE_INFO_P(z) = IS_TRUE)
#define ZVAL_BOOL(z, b) (Z_TYPE_INFO_P(z) = (b) ? IS_TRUE : IS_FALSE)
#define ZVAL_LONG(z, l)           \
  do {                            \
    zval *__z = (z);              \
    Z_LVAL_P(__z) = (l);          \
    Z_TYPE_INFO_P(__z) = IS_LONG; \
  } while (0)
#define ZVAL_DOUBLE(z, d)           \
  do {                              \
    zval *__z = (z);                \
    Z_DVAL_P(__z) = (d);            \
    Z_TYPE_INFO_P(__z) = IS_DOUBLE; \
  } while (0)
#define ZVAL_STR(z, s)                                     \
  do {                                                     \
    zval *__z = (z);                                       \
    zend_string *__s = (s);                                \
    Z_STR_P(__z) = __s;                                    \
    Z_TYPE_INFO_P(__z) = (GC_FLAGS(__s) & IS_STR_INTERNED) \
                             ? IS_INTERNED_STRING_EX       \
                             : IS_STRING_EX;               \
  } while (0)
#define ZVAL_STR_COPY(z, s)                       \
  do {                                            \
    zval *__z = (z);                              \
    zend_string *__s = (s);                       \
    Z_STR_P(__z) = __s;                           \
    if (GC_FLAGS(__s) & IS_STR_INTERNED) {        \
      Z_TYPE_INFO_P(__z) = IS_INTERNED_STRING_EX; \
    } else {                                      \
      GC_ADDREF(__s);                             \
      Z_TYPE_INFO_P(__z) = IS_STRING_EX;          \
    }                                             \
  } while (0)
/* A string zval taking `s` as not interned (PHP: a new string). */
#define ZVAL_NEW_STR(z, s)             \
  do {                                 \
    zval *__z = (z);                   \
    zend_string *__s = (s);            \
    Z_STR_P(__z) = __s;                \
    Z_TYPE_INFO_P(__z) = IS_STRING_EX; \
  } while (0)
#define ZVAL_ARR(z, a)                \
  do {                                \
    zval *__z = (z);                  \
    Z_ARR_P(__z) = (a);               \
    Z_TYPE_INFO_P(__z) = IS_ARRAY_EX; \
  } while (0)
#define ZVAL_OBJ(z, o)                 \
  do {                                 \
    zval *__z = (z);                   \
    Z_OBJ_P(__z) = (o);                \
    Z_TYPE_INFO_P(__z) = IS_OBJECT_EX; \
  } while (0)
#define ZVAL_OBJ_COPY(z, o)            \
  do {                                 \
    zval *__z = (z);                   \
    zend_object *__o = (o);            \
    GC_ADDREF(__o);                    \
    Z_OBJ_P(__z) = __o;                \
    Z_TYPE_INFO_P(__z) = IS_OBJECT_EX; \
  } while (0)
#define ZVAL_RES(z, r)                   \
  do {                                   \
    zval *__z = (z);                     \
    Z_RES_P(__z) = (r);                  \
    Z_TYPE_INFO_P(__z) = IS_RESOURCE_EX; \
  } while (0)
#define ZVAL_PTR(z, p)         \
  do {                         \
    Z_PTR_P(z) = (p);          \
    Z_TYPE_INFO_P(z) = IS_PTR; \
  } while (0)

#define ZVAL_COPY_VALUE(z, v)                \
  do {                                       \
    zval *_z1 = (z);                         \
    const zval *_z2 = (v);                   \
    _z1->value = _z2->value;                 \
    Z_TYPE_INFO_P(_z1) = Z_TYPE_INFO_P(_z2); \
  } while (0)
#define ZVAL_COPY(z, v)                                   \
  do {                                                    \
    zval *_z1 = (z);                                      \
    const zval *_z2 = (v);                                \
    _z1->value = _z2->value;                              \
    Z_TYPE_INFO_P(_z1) = Z_TYPE_INFO_P(_z2);              \
    if (Z_REFCOUNTED_P(_z1)) GC_ADDREF(Z_COUNTED_P(_z1)); \
  } while (0)
#define ZVAL_COPY_DEREF(z, v)                  \
  do {                                         \
    const zval *_z3 = (v);                     \
    if (Z_ISREF_P(_z3)) _z3 = Z_REFVAL_P(_z3); \
    ZVAL_COPY((z), _z3);                       \
  } while (0)

/* Makes the array in `zv` its own before a write: a shared array (refcount
 * above 1) is replaced by a copy, and the zval's reference to the shared
 * one dropped (zend_array_dup, zend_hash.h). */
#define SEPARATE_ARRAY(zv)                   \
  do {                                       \
    zval *__zv = (zv);                       \
    zend_array *_arr = Z_ARR_P(__zv);        \
    if (UNEXPECTED(GC_REFCOUNT(_arr) > 1)) { \
      ZVAL_ARR(__zv, zend_array_dup(_arr));  \
      GC_TRY_DELREF(_arr);                   \
    }                                        \
  } while (0)

END_EXTERN_C()

#endif /* ZEND_TYPES_H */
