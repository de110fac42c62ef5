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
/* Compiled code: an AST node, and a refcounted AST (a constant expression
 * in an IS_CONSTANT_AST zval), see zend_ast.h. */
typedef struct _zend_ast zend_ast;
typedef struct _zend_ast_ref zend_ast_ref;

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
  zend_ast_ref *ast;
  void *ptr;
  zend_class_entry *ce;
  zend_function *func;
  zval *zv; /* IS_INDIRECT: the slot this zval stands for */
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
    uint32_t lineno; /* of a ZEND_AST_ZVAL node's value */
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

/* The table's flags and its data block, as PHP names them: the data block
 * is one allocation, -nTableMask uint32_t hash slots followed by the
 * buckets (a packed table: zvals), and arData points past the slots. An
 * uninitialized table has nTableMask == HT_MIN_MASK and arData past two
 * shared HT_INVALID_IDX slots. Code that copies a table's data (php-async
 * copies tables into persistent memory for other threads) sizes and
 * re-points it with these. */
#define HT_FLAGS(ht) (ht)->u.flags
#define HT_IS_PACKED(ht) ((HT_FLAGS(ht) & HASH_FLAG_PACKED) != 0)
#define HT_INVALID_IDX ((uint32_t)-1)
#define HT_MIN_MASK ((uint32_t)-2)
#define HT_SIZE_TO_MASK(nSize) ((uint32_t)(-((nSize) + (nSize))))
#define HT_HASH_SIZE(nTableMask) \
  (((size_t) - (uint32_t)(nTableMask)) * sizeof(uint32_t))
#define HT_DATA_SIZE(nTableSize) ((size_t)(nTableSize) * sizeof(Bucket))
#define HT_SIZE_EX(nTableSize, nTableMask) \
  (HT_DATA_SIZE((nTableSize)) + HT_HASH_SIZE((nTableMask)))
#define HT_SIZE(ht) HT_SIZE_EX((ht)->nTableSize, (ht)->nTableMask)
#define HT_USED_SIZE(ht) \
  (HT_HASH_SIZE((ht)->nTableMask) + ((size_t)(ht)->nNumUsed * sizeof(Bucket)))
#define HT_PACKED_DATA_SIZE(nTableSize) ((size_t)(nTableSize) * sizeof(zval))
#define HT_PACKED_SIZE_EX(nTableSize, nTableMask) \
  (HT_PACKED_DATA_SIZE((nTableSize)) + HT_HASH_SIZE((nTableMask)))
#define HT_PACKED_SIZE(ht) HT_PACKED_SIZE_EX((ht)->nTableSize, (ht)->nTableMask)
#define HT_PACKED_USED_SIZE(ht) \
  (HT_HASH_SIZE((ht)->nTableMask) + ((size_t)(ht)->nNumUsed * sizeof(zval)))
#define HT_GET_DATA_ADDR(ht) \
  ((char *)((ht)->arData) - HT_HASH_SIZE((ht)->nTableMask))
#define HT_SET_DATA_ADDR(ht, ptr)                                     \
  do {                                                                \
    (ht)->arData =                                                    \
        (Bucket *)(((char *)(ptr)) + HT_HASH_SIZE((ht)->nTableMask)); \
  } while (0)

/* ---- HashTable positions and iterators (zend_hash.h) ----
 * A position is a bucket index: positions at or past nNumUsed are the end.
 * EG(ht_iterators)[i] is a position that the table keeps current while it
 * changes (see zend_hash_iterator_add); next_copy links the copies of one
 * iterator made when its table was duplicated (a circular list through
 * EG(ht_iterators) indexes; an iterator without copies links to itself). */
typedef uint32_t HashPosition;

typedef struct _HashTableIterator {
  HashTable *ht;
  HashPosition pos;
  uint32_t next_copy;
} HashTableIterator;

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
/* Pseudo-types of type declarations (they overlap the internal types). */
#define IS_CALLABLE 12
#define IS_ITERABLE 13
#define IS_VOID 14
#define IS_STATIC 15
#define IS_MIXED 16
#define IS_NEVER 17
#define _IS_NUMBER 19

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
#define IS_STR_CLASS_NAME_MAP_PTR GC_PROTECTED
/* An interned string that outlives requests, and one known to be valid
 * UTF-8 (the mock sets neither itself; extensions that make strings of
 * their own may). */
#define IS_STR_PERMANENT (1 << 8)
#define IS_STR_VALID_UTF8 (1 << 9)
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
/* pz may be any pointer to a zval, a void * included: php-async's
 * callbacks pass their void *result as it comes. */
#define Z_TRY_ADDREF_P(pz)                    \
  do {                                        \
    zval *_pz = (zval *)(pz);                 \
    if (Z_REFCOUNTED_P(_pz)) Z_ADDREF_P(_pz); \
  } while (0)
#define Z_TRY_ADDREF(z) Z_TRY_ADDREF_P(&(z))
#define Z_TRY_DELREF_P(pz)                    \
  do {                                        \
    zval *_pz = (zval *)(pz);                 \
    if (Z_REFCOUNTED_P(_pz)) Z_DELREF_P(_pz); \
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

/* ---- IS_INDIRECT zvals: a table slot that stands for another zval (PHP
 * keeps object properties and compiled variables in tables this way). ---- */
#define Z_INDIRECT(zval) (zval).value.zv
#define Z_INDIRECT_P(zval_p) Z_INDIRECT(*(zval_p))
#define ZVAL_INDIRECT(z, v)         \
  do {                              \
    Z_INDIRECT_P(z) = (v);          \
    Z_TYPE_INFO_P(z) = IS_INDIRECT; \
  } while (0)

/* ---- Type declarations and typed property slots ----
 *
 * zend_type is PHP's type declaration: a MAY_BE_* mask (zend_type_info.h)
 * in the low bits of type_mask, kind bits saying what ptr is (a class name
 * as zend_string*, a class name as a C literal, or a zend_type_list*), and
 * arg-info flags above _ZEND_TYPE_EXTRA_FLAGS_SHIFT. Bits and macros have
 * PHP 8.3+'s values and names. */
typedef struct _zend_property_info zend_property_info;

typedef struct {
  void *ptr;
  uint32_t type_mask;
} zend_type;

/* A refcounted AST: the header is followed by the root node (GC_AST). */
struct _zend_ast_ref {
  zend_refcounted_h gc;
};

#define IS_CONSTANT_AST_EX \
  (IS_CONSTANT_AST | (IS_TYPE_REFCOUNTED << Z_TYPE_FLAGS_SHIFT))
#define GC_CONSTANT_AST \
  (IS_CONSTANT_AST | (GC_NOT_COLLECTABLE << GC_FLAGS_SHIFT))
#define GC_AST(p) ((zend_ast *)(((char *)(p)) + sizeof(zend_ast_ref)))
#define Z_AST(zval) (zval).value.ast
#define Z_AST_P(zval_p) Z_AST(*(zval_p))
#define Z_ASTVAL(zval) GC_AST(Z_AST(zval))
#define Z_ASTVAL_P(zval_p) Z_ASTVAL(*(zval_p))
#define ZVAL_AST(z, a)                       \
  do {                                       \
    zval *__z = (z);                         \
    Z_AST_P(__z) = (a);                      \
    Z_TYPE_INFO_P(__z) = IS_CONSTANT_AST_EX; \
  } while (0)

typedef struct {
  uint32_t num_types;
  zend_type types[1];
} zend_type_list;

#define _ZEND_TYPE_EXTRA_FLAGS_SHIFT 25
#define _ZEND_TYPE_MASK ((1u << 25) - 1)
#define _ZEND_TYPE_NAME_BIT (1u << 24)
#define _ZEND_TYPE_LITERAL_NAME_BIT (1u << 23)
#define _ZEND_TYPE_LIST_BIT (1u << 22)
#define _ZEND_TYPE_KIND_MASK \
  (_ZEND_TYPE_LIST_BIT | _ZEND_TYPE_NAME_BIT | _ZEND_TYPE_LITERAL_NAME_BIT)
#define _ZEND_TYPE_ITERABLE_BIT (1u << 21)
#define _ZEND_TYPE_ARENA_BIT (1u << 20)
#define _ZEND_TYPE_INTERSECTION_BIT (1u << 19)
#define _ZEND_TYPE_UNION_BIT (1u << 18)
#define _ZEND_TYPE_MAY_BE_MASK ((1u << 18) - 1)
#define _ZEND_TYPE_NULLABLE_BIT 0x2u

#define ZEND_TYPE_IS_SET(t) (((t).type_mask & _ZEND_TYPE_MASK) != 0)
#define ZEND_TYPE_IS_COMPLEX(t) ((((t).type_mask) & _ZEND_TYPE_KIND_MASK) != 0)
#define ZEND_TYPE_HAS_NAME(t) ((((t).type_mask) & _ZEND_TYPE_NAME_BIT) != 0)
#define ZEND_TYPE_HAS_LITERAL_NAME(t) \
  ((((t).type_mask) & _ZEND_TYPE_LITERAL_NAME_BIT) != 0)
#define ZEND_TYPE_HAS_LIST(t) ((((t).type_mask) & _ZEND_TYPE_LIST_BIT) != 0)
#define ZEND_TYPE_IS_ITERABLE_FALLBACK(t) \
  ((((t).type_mask) & _ZEND_TYPE_ITERABLE_BIT) != 0)
#define ZEND_TYPE_IS_INTERSECTION(t) \
  ((((t).type_mask) & _ZEND_TYPE_INTERSECTION_BIT) != 0)
#define ZEND_TYPE_IS_UNION(t) ((((t).type_mask) & _ZEND_TYPE_UNION_BIT) != 0)
#define ZEND_TYPE_USES_ARENA(t) ((((t).type_mask) & _ZEND_TYPE_ARENA_BIT) != 0)
#define ZEND_TYPE_IS_ONLY_MASK(t) (ZEND_TYPE_IS_SET(t) && (t).ptr == NULL)
#define ZEND_TYPE_NAME(t) ((zend_string *)(t).ptr)
#define ZEND_TYPE_LITERAL_NAME(t) ((const char *)(t).ptr)
#define ZEND_TYPE_LIST(t) ((zend_type_list *)(t).ptr)
#define ZEND_TYPE_LIST_SIZE(num_types) \
  (sizeof(zend_type_list) + ((num_types)-1) * sizeof(zend_type))

/* Visits each member of a type list (`qual`: const or nothing). */
#define _ZEND_TYPE_LIST_FOREACH(qual, list, type_ptr) \
  do {                                                \
    qual zend_type *_list = (list)->types;            \
    qual zend_type *_end = _list + (list)->num_types; \
    for (; _list < _end; _list++) {                   \
      type_ptr = _list;
#define ZEND_TYPE_LIST_FOREACH(list, type_ptr) \
  _ZEND_TYPE_LIST_FOREACH(const, list, type_ptr)
#define ZEND_TYPE_LIST_FOREACH_MUTABLE(list, type_ptr) \
  _ZEND_TYPE_LIST_FOREACH(, list, type_ptr)
#define ZEND_TYPE_LIST_FOREACH_END() \
  }                                  \
  }                                  \
  while (0)

/* Visits every single type of `type`: each list member, or `type` itself. */
#define _ZEND_TYPE_FOREACH(qual, type, type_ptr)         \
  do {                                                   \
    qual zend_type *_cur, *_end;                         \
    if (ZEND_TYPE_HAS_LIST(type)) {                      \
      qual zend_type_list *_list = ZEND_TYPE_LIST(type); \
      _cur = _list->types;                               \
      _end = _cur + _list->num_types;                    \
    } else {                                             \
      _cur = &(type);                                    \
      _end = _cur + 1;                                   \
    }                                                    \
    do {                                                 \
      type_ptr = _cur;
#define ZEND_TYPE_FOREACH(type, type_ptr) \
  _ZEND_TYPE_FOREACH(const, type, type_ptr)
#define ZEND_TYPE_FOREACH_MUTABLE(type, type_ptr) \
  _ZEND_TYPE_FOREACH(, type, type_ptr)
#define ZEND_TYPE_FOREACH_END() \
  }                             \
  while (++_cur < _end)         \
    ;                           \
  }                             \
  while (0)

#define ZEND_TYPE_SET_PTR(t, _ptr) ((t).ptr = (_ptr))
#define ZEND_TYPE_SET_PTR_AND_KIND(t, _ptr, kind_bit) \
  do {                                                \
    (t).ptr = (_ptr);                                 \
    (t).type_mask &= ~_ZEND_TYPE_KIND_MASK;           \
    (t).type_mask |= (kind_bit);                      \
  } while (0)
#define ZEND_TYPE_SET_LIST(t, list) \
  ZEND_TYPE_SET_PTR_AND_KIND(t, list, _ZEND_TYPE_LIST_BIT)

#define ZEND_TYPE_FULL_MASK(t) ((t).type_mask)
#define ZEND_TYPE_PURE_MASK(t) ((t).type_mask & _ZEND_TYPE_MAY_BE_MASK)
#define ZEND_TYPE_FULL_MASK_WITHOUT_NULL(t) \
  ((t).type_mask & ~_ZEND_TYPE_NULLABLE_BIT)
#define ZEND_TYPE_PURE_MASK_WITHOUT_NULL(t) \
  ((t).type_mask & _ZEND_TYPE_MAY_BE_MASK & ~_ZEND_TYPE_NULLABLE_BIT)
#define ZEND_TYPE_CONTAINS_CODE(t, code) (((t).type_mask & (1u << (code))) != 0)
#define ZEND_TYPE_ALLOW_NULL(t) (((t).type_mask & _ZEND_TYPE_NULLABLE_BIT) != 0)

/* Initialisers (braced: `(zend_type) ZEND_TYPE_INIT_MASK(...)` is a
 * compound literal in C, as gen_stub.php writes them). ZEND_TYPE_INIT_CODE
 * needs zend_type_info.h's MAY_BE_*. */
#define ZEND_TYPE_INIT_NONE(extra_flags) \
  { NULL, (extra_flags) }
#define ZEND_TYPE_INIT_MASK(_type_mask) \
  { NULL, (_type_mask) }
#define ZEND_TYPE_INIT_CODE(code, allow_null, extra_flags)                 \
  ZEND_TYPE_INIT_MASK(                                                     \
      ((code) == _IS_BOOL                                                  \
           ? MAY_BE_BOOL                                                   \
           : ((code) == IS_ITERABLE                                        \
                  ? _ZEND_TYPE_ITERABLE_BIT                                \
                  : ((code) == IS_MIXED ? MAY_BE_ANY : (1u << (code))))) | \
      ((allow_null) ? _ZEND_TYPE_NULLABLE_BIT : 0) | (extra_flags))
#define ZEND_TYPE_INIT_PTR(ptr, type_kind, allow_null, extra_flags)   \
  {                                                                   \
    (void *)(ptr), (type_kind) |                                      \
                       ((allow_null) ? _ZEND_TYPE_NULLABLE_BIT : 0) | \
                       (extra_flags)                                  \
  }
#define ZEND_TYPE_INIT_PTR_MASK(ptr, type_mask) \
  { (void *)(ptr), (type_mask) }
#define ZEND_TYPE_INIT_UNION(ptr, extra_flags)                       \
  {                                                                  \
    (void *)(ptr),                                                   \
        (_ZEND_TYPE_LIST_BIT | _ZEND_TYPE_UNION_BIT) | (extra_flags) \
  }
#define ZEND_TYPE_INIT_INTERSECTION(ptr, extra_flags)                       \
  {                                                                         \
    (void *)(ptr),                                                          \
        (_ZEND_TYPE_LIST_BIT | _ZEND_TYPE_INTERSECTION_BIT) | (extra_flags) \
  }
#define ZEND_TYPE_INIT_CLASS(class_name, allow_null, extra_flags) \
  ZEND_TYPE_INIT_PTR(class_name, _ZEND_TYPE_NAME_BIT, allow_null, extra_flags)
#define ZEND_TYPE_INIT_CLASS_MASK(class_name, type_mask) \
  ZEND_TYPE_INIT_PTR_MASK(class_name, _ZEND_TYPE_NAME_BIT | (type_mask))
#define ZEND_TYPE_INIT_CLASS_CONST(class_name, allow_null, extra_flags)   \
  ZEND_TYPE_INIT_PTR(class_name, _ZEND_TYPE_LITERAL_NAME_BIT, allow_null, \
                     extra_flags)
#define ZEND_TYPE_INIT_CLASS_CONST_MASK(class_name, type_mask) \
  ZEND_TYPE_INIT_PTR_MASK(class_name,                          \
                          (_ZEND_TYPE_LITERAL_NAME_BIT | (type_mask)))

/* zval.u2.extra: a declared property slot keeps its state there while its
 * type is IS_UNDEF. IS_PROP_UNINIT: a typed property never initialised
 * (reading it throws); IS_PROP_REINITABLE: a readonly property a clone may
 * set again; IS_PROP_LAZY: part of a lazy object. Copying a slot keeps the
 * flags only through the _PROP copies. */
#define Z_EXTRA(zval) (zval).u2.extra
#define Z_EXTRA_P(zval_p) Z_EXTRA(*(zval_p))
#define IS_PROP_UNINIT (1 << 0)
#define IS_PROP_REINITABLE (1 << 1)
#define IS_PROP_LAZY (1 << 2)
#define Z_PROP_FLAG_P(z) Z_EXTRA_P(z)
#define ZVAL_COPY_VALUE_PROP(z, v) \
  do {                             \
    *(z) = *(v);                   \
  } while (0)
#define ZVAL_COPY_PROP(z, v)             \
  do {                                   \
    ZVAL_COPY(z, v);                     \
    Z_PROP_FLAG_P(z) = Z_PROP_FLAG_P(v); \
  } while (0)

/* Marks a persistent value as owned by one thread. PHP checks the flag only
 * in ZEND_RC_DEBUG builds and otherwise compiles this to nothing; the mock
 * does the same (on objects the bit is IS_OBJ_DESTRUCTOR_CALLED). */
#define GC_MAKE_PERSISTENT_LOCAL(p) \
  do {                              \
  } while (0)
/* ---- end of type declarations and typed property slots ---- */

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
