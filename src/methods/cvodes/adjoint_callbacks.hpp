// The backward right-hand sides of cvodes_asa, for CVODES (user data: the
// Session): the adjoint lambda' = -J_x^T lambda and the gradient's
// quadrature q' = -J_p^T lambda.
#pragma once

#include <cvodes/cvodes.h>

namespace odesens::cvodes {

int adjoint_rhs(sunrealtype t, N_Vector y, N_Vector lambda, N_Vector lambda_dot, void* user_data);
int adjoint_quadrature(sunrealtype t, N_Vector y, N_Vector lambda, N_Vector q_dot,
                       void* user_data);

}  // namespace odesens::cvodes
