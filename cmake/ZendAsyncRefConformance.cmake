# zend_async_ref_add_conformance_impl(): builds an implementation library the
# conformance runner loads (--impl): either a whole extension of your own, or
# a pool of your own over the reference scheduler and reactor
# (docs/conformance.md, "Validating another implementation").
#
# A whole extension (its scheduler, reactor, pool, ... registered by its own
# MINIT): its sources and the name of its module entry.
#
#   find_package(ZendAsyncRef REQUIRED)        # project(<name> C)
#   zend_async_ref_add_conformance_impl(my_ext_impl
#     MODULE_ENTRY         my_ext_module_entry          # the zend_module_entry
#     SOURCES              my_ext.c my_ext_reactor.c    # required
#     INCLUDE_DIRECTORIES  ${CMAKE_CURRENT_SOURCE_DIR}  # optional, PRIVATE
#     COMPILE_DEFINITIONS  HAVE_MY_EXT                  # optional, PRIVATE
#     COMPILE_OPTIONS      -Wno-unused-parameter        # optional, PRIVATE
#     LINK_LIBRARIES       PkgConfig::UV)               # optional, PRIVATE
#   # then: zend-async-conformance --impl $<TARGET_FILE:my_ext_impl>
#
# The library is SOURCES plus a generated C file that defines the entry point
# zend_async_conformance_module(), returning &MODULE_ENTRY (a global of C
# linkage that SOURCES define). Libraries in LINK_LIBRARIES are the
# extension's own (libuv, ...); the linker hides their symbols
# (--exclude-libs,ALL) so the library exports the entry point only.
#
# A pool over the reference scheduler and reactor: no MODULE_ENTRY.
#
#   zend_async_ref_add_conformance_impl(my_pool_impl  # project(<name> C CXX)
#     SOURCES pool.c my_pool_hook.c
#     INCLUDE_DIRECTORIES ${CMAKE_CURRENT_SOURCE_DIR})
#
# The result is SOURCES and the pool adapter
# (ZendAsyncRef::conformance_pool_adapter: the reference scheduler, its
# classes and the libuv reactor under a "true_async" module entry, and the
# entry point zend_async_conformance_module()). One of SOURCES implements
# zend_async_conformance_pool_startup() (and may implement
# zend_async_conformance_pool_shutdown()), declared in
# "zend_async_ref/conformance_pool.h": it registers the pool through
# zend_async_pool_api_register() and defines the pool's classes. The adapter
# is C++: the project must enable CXX (project(<name> C CXX)).
#
# Either way SOURCES compile against the package's include root (php.h,
# Zend/zend_async_API.h, ...) with hidden visibility; the engine and the ABI
# (zend_*, executor_globals, zend_async_*) stay undefined and bind to the
# runner's when it loads the library (with RTLD_NOW: a symbol neither the
# runner nor the library's own dependencies define fails the load, naming
# it), so the library links neither ZendAsyncRef::abi nor
# ZendAsyncRef::mock_zend.
function(zend_async_ref_add_conformance_impl name)
  cmake_parse_arguments(ARG "" "MODULE_ENTRY"
    "SOURCES;INCLUDE_DIRECTORIES;COMPILE_DEFINITIONS;COMPILE_OPTIONS;LINK_LIBRARIES"
    ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "zend_async_ref_add_conformance_impl(${name}): "
      "unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCES)
    if(ARG_MODULE_ENTRY)
      set(_what "the extension's sources")
    else()
      set(_what "your pool and the file that implements "
        "zend_async_conformance_pool_startup()")
    endif()
    message(FATAL_ERROR "zend_async_ref_add_conformance_impl(${name}): "
      "SOURCES is required (${_what})")
  endif()
  if(ARG_MODULE_ENTRY AND NOT ARG_MODULE_ENTRY MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "zend_async_ref_add_conformance_impl(${name}): "
      "MODULE_ENTRY must name a C global (a zend_module_entry), not "
      "\"${ARG_MODULE_ENTRY}\"")
  endif()
  get_property(_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(ARG_MODULE_ENTRY AND NOT "C" IN_LIST _languages)
    message(FATAL_ERROR "zend_async_ref_add_conformance_impl(${name}): the "
      "generated entry point is C; enable C in your project "
      "(project(<name> C) or enable_language(C))")
  endif()
  if(NOT ARG_MODULE_ENTRY AND NOT "CXX" IN_LIST _languages)
    message(FATAL_ERROR "zend_async_ref_add_conformance_impl(${name}): the "
      "pool adapter is C++; enable CXX in your project "
      "(project(<name> C CXX) or enable_language(CXX))")
  endif()
  set(_needed ZendAsyncRef::abi ZendAsyncRef::mock_zend)
  if(NOT ARG_MODULE_ENTRY)
    list(APPEND _needed ZendAsyncRef::conformance_pool_adapter)
  endif()
  foreach(_target ${_needed})
    if(NOT TARGET ${_target})
      message(FATAL_ERROR "zend_async_ref_add_conformance_impl(${name}): "
        "${_target} is not defined; call find_package(ZendAsyncRef) first")
    endif()
  endforeach()

  add_library(${name} SHARED ${ARG_SOURCES})
  target_include_directories(${name} PRIVATE
    ${ARG_INCLUDE_DIRECTORIES}
    $<TARGET_PROPERTY:ZendAsyncRef::mock_zend,INTERFACE_INCLUDE_DIRECTORIES>
    $<TARGET_PROPERTY:ZendAsyncRef::abi,INTERFACE_INCLUDE_DIRECTORIES>)
  target_compile_definitions(${name} PRIVATE
    $<TARGET_PROPERTY:ZendAsyncRef::mock_zend,INTERFACE_COMPILE_DEFINITIONS>
    ${ARG_COMPILE_DEFINITIONS})
  target_compile_options(${name} PRIVATE ${ARG_COMPILE_OPTIONS})
  set_target_properties(${name} PROPERTIES
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    POSITION_INDEPENDENT_CODE ON)

  if(ARG_MODULE_ENTRY)
    # The entry point, generated: the one exported symbol.
    set(_entry ${CMAKE_CURRENT_BINARY_DIR}/${name}_conformance_entry.c)
    file(CONFIGURE OUTPUT ${_entry} @ONLY CONTENT [[
/* Generated by zend_async_ref_add_conformance_impl(@name@): the entry point
 * the conformance runner calls (zend_async_ref/conformance.h). */
#include "zend_async_ref/conformance.h"

extern zend_module_entry @ARG_MODULE_ENTRY@;

ZEND_ASYNC_CONFORMANCE_EXPORT zend_module_entry *zend_async_conformance_module(
    void) {
  return &@ARG_MODULE_ENTRY@;
}
]])
    target_sources(${name} PRIVATE ${_entry})
    target_link_options(${name} PRIVATE "LINKER:--exclude-libs,ALL")
    target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBRARIES})
    return()
  endif()

  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX)
  # The entry point lives in the adapter archive and nothing in SOURCES
  # refers to it: ask the linker for it, which brings the adapter in. (No
  # --exclude-libs: it would hide the entry point too; the adapter is
  # compiled with hidden visibility, so the entry point is all it exports.)
  target_link_options(${name} PRIVATE
    "LINKER:--undefined=zend_async_conformance_module")
  target_link_libraries(${name} PRIVATE
    ZendAsyncRef::conformance_pool_adapter
    ${ARG_LINK_LIBRARIES})
endfunction()
