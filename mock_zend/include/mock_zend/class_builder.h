// zend-async-ref: C++ helpers over the mock Zend engine.
//
// Defines classes the way a PHP script would (class Foo extends Bar
// implements Baz { public $x; function m() {...} }), with method bodies
// written as NativeBody lambdas.
//
// Lifetime: the class entry and its methods live until module shutdown.

#ifndef MOCK_ZEND_CLASS_BUILDER_H_
#define MOCK_ZEND_CLASS_BUILDER_H_

#include <string>
#include <utility>
#include <vector>

#include "mock_zend/callable.h"

namespace mock_zend {

class ClassBuilder {
 public:
  explicit ClassBuilder(std::string name) : name_(std::move(name)) {}

  ClassBuilder &Extends(zend_class_entry *parent) {
    parent_ = parent;
    return *this;
  }
  ClassBuilder &Implements(zend_class_entry *interface_ce) {
    interfaces_.push_back(interface_ce);
    return *this;
  }
  ClassBuilder &Method(std::string name, NativeBody body) {
    methods_.emplace_back(std::move(name), std::move(body));
    return *this;
  }
  // A public property whose default value is null.
  ClassBuilder &Property(std::string name) {
    properties_.push_back(std::move(name));
    return *this;
  }

  // Registers the class. REQUIRES: the module has started and no class of
  // that name exists.
  zend_class_entry *Build();

 private:
  std::string name_;
  zend_class_entry *parent_ = nullptr;
  std::vector<zend_class_entry *> interfaces_;
  std::vector<std::pair<std::string, NativeBody>> methods_;
  std::vector<std::string> properties_;
};

}  // namespace mock_zend

#endif  // MOCK_ZEND_CLASS_BUILDER_H_
