// The source of odesens_test_pch (tests/CMakeLists.txt): the program for
// which the test programs' precompiled headers are compiled. It has no
// tests of its own; GoogleTest's main runs none.
