// Factories of the individual built-in models, used by the name registry.
#pragma once

#include <cstddef>
#include <memory>

#include "model/builtin/builtin_model.hpp"
#include "model/builtin/builtin_reference.hpp"
#include "odesens/builtin_models.hpp"

namespace odesens::builtin {

std::shared_ptr<Model> make_chua();
std::shared_ptr<Model> make_vanderpol();
std::shared_ptr<Model> make_glv(std::size_t n);
std::shared_ptr<Model> make_linear(std::size_t n);
std::shared_ptr<Model> make_heat2d(std::size_t grid);
std::shared_ptr<Model> make_network(std::size_t n);

}  // namespace odesens::builtin
