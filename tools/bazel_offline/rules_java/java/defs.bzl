"""Offline stand-in for rules_java: re-exports Bazel's native Java rules (nothing here is built with Java)."""
java_binary = native.java_binary
java_import = native.java_import
java_library = native.java_library
java_runtime = native.java_runtime
java_toolchain = native.java_toolchain
java_test = native.java_test
java_plugin = native.java_plugin
