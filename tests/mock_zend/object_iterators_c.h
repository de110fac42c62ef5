/*
 * Object iterators used from C11, as php-async's channel.c defines one: an
 * iterator struct embedding zend_object_iterator, its funcs with
 * designated initializers, a class's get_iterator set after registering
 * the class (which implements IteratorAggregate), and a walk with
 * spl_iterator_apply. object_iterators_test.cc runs the check; it returns
 * 0 on success or the line of the first failed condition.
 */
#ifndef ZAR_TESTS_MOCK_ZEND_OBJECT_ITERATORS_C_H_
#define ZAR_TESTS_MOCK_ZEND_OBJECT_ITERATORS_C_H_

#ifdef __cplusplus
extern "C" {
#endif

int object_iterators_c_check(void);

#ifdef __cplusplus
}
#endif

#endif /* ZAR_TESTS_MOCK_ZEND_OBJECT_ITERATORS_C_H_ */
