# zend_async_ref_add_conformance_impl(): builds a pool of your own into an
# implementation library the conformance runner loads (--impl), over the
# reference scheduler and reactor (docs/conformance.md, "Validating a pool").
#
#   find_package(ZendAsyncRef REQUIRED)        # or in the source tree
#   zend_async_ref_add_conformance_impl(my_pool_impl
#     SOURCES              my_pool.c my_pool_hook.c     # required
#     INCLUDE_DIRECTORIES  ${CMAKE_CURRENT_SOURCE_DIR}  # optional, PRIVATE
#     COMPILE_DEFINITIONS  MY_POOL_FOR_TESTS            # optional, PRIVATE
#     COMPILE_OPTIONS      -Wno-unused-parameter        # optional, PRIVATE
#     LINK_LIBRARIES       m)                           # optional, PRIVATE
#   # then: zend-async-conformance --impl $<TARGET_FILE:my_pool_impl>
#
# The result is a SHARED library made of SOURCES and the pool adapter
# (ZendAsyncRef::conformance_pool_adapter: the reference scheduler, its
# classes and the libuv reactor under a "true_async" module entry, and the
# entry point zend_async_conformance_module()). One of SOURCES implements
# zend_async_conformance_pool_startup() (and may implement
# zend_async_conformance_pool_shutdown()), declared in
# "zend_async_ref/conformance_pool.h": it registers the pool through
# zend_async_pool_api_register() and defines the pool's classes.
#
# SOURCES compile against the package's include root (php.h,
# Zend/zend_async_API.h, ...) with hidden visibility; the engine and the ABI
# (zend_*, executor_globals, zend_async_*) stay undefined and bind to the
# runner's when it loads the library, so the library links neither
# ZendAsyncRef::abi nor ZendAsyncRef::mock_zend. The adapter is C++: the
# project must enable CXX (project(<name> C CXX)).
function(zend_async_ref_add_conformance_impl name)
  cmake_parse_arguments(ARG ""  ""
    "SOURCES;INCLUDE_DIRECTORIES;COMPILE_DEFINITIONS;COMPILE_OPTIONS;LINK_LIBRARIES"
    ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "zend_async_ref_add_conformance_impl(${name}): "
      "unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "zend_async_ref_add_conformance_impl(${name}): "
      "SOURCES is required (your pool and the file that implements "
      "zend_async_conformance_pool_startup())")
  endif()
  get_property(_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CXX" IN_LIST _languages)
    message(FATAL_ERROR "zend_async_ref_add_conformance_impl(${name}): the "
      "pool adapter is C++; enable CXX in your project "
      "(project(<name> C CXX) or enable_language(CXX))")
  endif()
  foreach(_target ZendAsyncRef::conformance_pool_adapter ZendAsyncRef::abi
                  ZendAsyncRef::mock_zend)
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
    POSITION_INDEPENDENT_CODE ON
    LINKER_LANGUAGE CXX)
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
