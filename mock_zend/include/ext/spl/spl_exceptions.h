/*
 * zend-async-ref: mock Zend engine. The SPL exception classes userland code
 * commonly throws (RuntimeException and friends), registered at startup.
 */
#ifndef SPL_EXCEPTIONS_H
#define SPL_EXCEPTIONS_H

#include "zend_API.h"

BEGIN_EXTERN_C()

ZEND_API extern zend_class_entry *spl_ce_LogicException;
ZEND_API extern zend_class_entry *spl_ce_InvalidArgumentException;
ZEND_API extern zend_class_entry *spl_ce_RuntimeException;
ZEND_API extern zend_class_entry *spl_ce_OutOfBoundsException;
ZEND_API extern zend_class_entry *spl_ce_UnexpectedValueException;

END_EXTERN_C()

#endif /* SPL_EXCEPTIONS_H */
