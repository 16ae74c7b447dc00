// Umbrella header: the whole public API of tensorlite.
#pragma once

#include "tensorlite/conv2d.h"
#include "tensorlite/dtype.h"
#include "tensorlite/elementwise.h"
#include "tensorlite/error.h"
#include "tensorlite/init.h"
#include "tensorlite/launch_geometry.h"
#include "tensorlite/layernorm.h"
#include "tensorlite/loss.h"
#include "tensorlite/matmul.h"
#include "tensorlite/optim.h"
#include "tensorlite/reduction.h"
#include "tensorlite/shape.h"
#include "tensorlite/softmax.h"
#include "tensorlite/tensor.h"
