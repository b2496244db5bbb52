// CUDA's built-in variables for the emu backend: real variables, as device_launch_parameters.h
// declares them for nvcc, not macros, so host code in the same file may declare its own
// gridDim or blockDim. The scheduler sets them (scheduler.cpp); they are per OS thread because
// different OS threads may run different launches, and within a launch threadIdx is rewritten
// on every switch into a fiber.
//
// Unlike CUDA's they are not const (the scheduler writes them); a kernel that assigns to one
// compiles on emu but not under nvcc, and the assignment lasts until its thread next waits.
#pragma once

#include "runtime/emu/model/vector_types.hpp"

// constinit: the initialisation is constant, so no TLS wrapper call guards each access.
extern thread_local constinit uint3 threadIdx;
extern thread_local constinit uint3 blockIdx;
extern thread_local constinit dim3 blockDim;
extern thread_local constinit dim3 gridDim;
constexpr int warpSize = 32;
