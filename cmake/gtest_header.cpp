// The translation unit that precompiles GoogleTest's header for the suites (cmake/KverifyFlavors.cmake).
