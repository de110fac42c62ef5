/*
 * zend-async-ref: mock Zend engine.
 *
 * Abstract syntax trees (Zend/zend_ast.h), PHP 8.5's node layouts and
 * kinds. The mock parses no PHP code, so the engine makes no AST; code that
 * builds or receives one (a constant expression in an IS_CONSTANT_AST zval,
 * a copied op array's literals) walks, copies and destroys it as with PHP:
 * zend_ast_copy, zend_ast_destroy and zend_ast_ref_destroy are real.
 *
 * A node's kind says its shape: ZEND_AST_ZVAL and ZEND_AST_CONSTANT nodes
 * are zend_ast_zval, ZEND_AST_OP_ARRAY a zend_ast_op_array,
 * ZEND_AST_CALLABLE_CONVERT a zend_ast_fcc, declarations zend_ast_decl,
 * list kinds (bit ZEND_AST_IS_LIST_SHIFT) zend_ast_list; every other kind
 * is a zend_ast with (kind >> ZEND_AST_NUM_CHILDREN_SHIFT) children.
 */
#ifndef ZEND_AST_H
#define ZEND_AST_H

#include "zend.h"

BEGIN_EXTERN_C()

#define ZEND_AST_SPECIAL_SHIFT 6
#define ZEND_AST_IS_LIST_SHIFT 7
#define ZEND_AST_NUM_CHILDREN_SHIFT 8

/* The kinds of each group that extensions test for (PHP's values). */
enum _zend_ast_kind {
  /* special nodes */
  ZEND_AST_ZVAL = 1 << ZEND_AST_SPECIAL_SHIFT,
  ZEND_AST_CONSTANT,
  ZEND_AST_OP_ARRAY,
  ZEND_AST_ZNODE,

  /* declaration nodes */
  ZEND_AST_FUNC_DECL,
  ZEND_AST_CLOSURE,
  ZEND_AST_METHOD,
  ZEND_AST_CLASS,
  ZEND_AST_ARROW_FUNC,
  ZEND_AST_PROPERTY_HOOK,

  /* list nodes */
  ZEND_AST_ARG_LIST = 1 << ZEND_AST_IS_LIST_SHIFT,
  ZEND_AST_ARRAY,

  /* 0 child nodes */
  ZEND_AST_MAGIC_CONST = 0 << ZEND_AST_NUM_CHILDREN_SHIFT,
  ZEND_AST_TYPE,
  ZEND_AST_CONSTANT_CLASS,
  ZEND_AST_CALLABLE_CONVERT,

  /* 1 child node */
  ZEND_AST_VAR = 1 << ZEND_AST_NUM_CHILDREN_SHIFT,
  ZEND_AST_CONST,

  /* 2 child nodes */
  ZEND_AST_DIM = 2 << ZEND_AST_NUM_CHILDREN_SHIFT,
  ZEND_AST_PROP,
};

typedef uint16_t zend_ast_kind;
typedef uint16_t zend_ast_attr;

struct _zend_ast {
  zend_ast_kind kind;
  zend_ast_attr attr;
  uint32_t lineno;
  zend_ast *child[1]; /* really child[num_children] */
};

typedef struct _zend_ast_list {
  zend_ast_kind kind;
  zend_ast_attr attr;
  uint32_t lineno;
  uint32_t children;
  zend_ast *child[1];
} zend_ast_list;

/* The line number is kept in val.u2.lineno. */
typedef struct _zend_ast_zval {
  zend_ast_kind kind;
  zend_ast_attr attr;
  zval val;
} zend_ast_zval;

typedef struct _zend_ast_op_array {
  zend_ast_kind kind;
  zend_ast_attr attr;
  uint32_t lineno;
  zend_op_array *op_array;
} zend_ast_op_array;

typedef struct _zend_ast_decl {
  zend_ast_kind kind;
  zend_ast_attr attr;
  uint32_t start_lineno;
  uint32_t end_lineno;
  uint32_t flags;
  zend_string *doc_comment;
  zend_string *name;
  zend_ast *child[5];
} zend_ast_decl;

/* A first-class callable conversion f(...): its arguments node and the
 * function it resolved to. */
typedef struct _zend_ast_fcc {
  zend_ast_kind kind;
  zend_ast_attr attr;
  uint32_t lineno;
  zend_ast *args;
  ZEND_MAP_PTR_DEF(zend_function *, fptr);
} zend_ast_fcc;

static zend_always_inline bool zend_ast_is_special(const zend_ast *ast) {
  return (ast->kind >> ZEND_AST_SPECIAL_SHIFT) & 1;
}

static zend_always_inline bool zend_ast_is_decl(const zend_ast *ast) {
  return zend_ast_is_special(ast) && ast->kind >= ZEND_AST_FUNC_DECL;
}

static zend_always_inline bool zend_ast_is_list(const zend_ast *ast) {
  return (ast->kind >> ZEND_AST_IS_LIST_SHIFT) & 1;
}

static zend_always_inline zend_ast_list *zend_ast_get_list(zend_ast *ast) {
  return (zend_ast_list *)ast;
}

static zend_always_inline uint32_t zend_ast_get_num_children(zend_ast *ast) {
  return ast->kind >> ZEND_AST_NUM_CHILDREN_SHIFT;
}

static zend_always_inline zval *zend_ast_get_zval(zend_ast *ast) {
  return &((zend_ast_zval *)ast)->val;
}

static zend_always_inline zend_string *zend_ast_get_str(zend_ast *ast) {
  return Z_STR_P(zend_ast_get_zval(ast));
}

static zend_always_inline uint32_t zend_ast_get_lineno(zend_ast *ast) {
  if (ast->kind == ZEND_AST_ZVAL || ast->kind == ZEND_AST_CONSTANT) {
    return zend_ast_get_zval(ast)->u2.lineno;
  }
  return ast->lineno;
}

/* The size of a node with `children` children. */
static zend_always_inline size_t zend_ast_size(uint32_t children) {
  return XtOffsetOf(zend_ast, child) + sizeof(zend_ast *) * children;
}

/* A refcounted copy of the tree (refcount 1) in one request-memory block:
 * values are copied with a reference added, an op array node is copied
 * as it is (the op array is shared), a callable conversion with its
 * arguments.
 * ZEND_AST_ZNODE and declaration nodes exist only while PHP compiles: the
 * copy fails loudly and returns NULL. */
ZEND_API zend_ast_ref *ZEND_FASTCALL zend_ast_copy(zend_ast *ast);
/* Releases what the nodes hold (values, children); the nodes themselves
 * belong to their allocator (the compiler's arena in PHP). */
ZEND_API void ZEND_FASTCALL zend_ast_destroy(zend_ast *ast);
/* Releases a refcounted tree whose refcount reached zero. */
ZEND_API void ZEND_FASTCALL zend_ast_ref_destroy(zend_ast_ref *ast);

END_EXTERN_C()

#endif /* ZEND_AST_H */
