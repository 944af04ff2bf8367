#include "capi_model_state.hpp"

#include "odesens/status.hpp"

namespace odesens::capi {

ModelState::ModelState(CallbackModelSpec spec) : spec_(std::move(spec)) {}

ModelState::ModelState(std::shared_ptr<const Model> builtin) : model_(std::move(builtin)) {}

CallbackModelSpec& ModelState::spec_to_change(const char* what) {
  if (!spec_)
    throw Error(Status::unsupported, "cannot set " + std::string(what) + " of the model '" +
                                         model_->name() + "': only callback models can be changed");
  std::lock_guard<std::mutex> lock(build_mutex_);
  model_.reset();
  return *spec_;
}

std::shared_ptr<const Model> ModelState::model() const {
  std::lock_guard<std::mutex> lock(build_mutex_);
  if (!model_) model_ = make_callback_model(*spec_);
  return model_;
}

std::size_t ModelState::nx() const { return spec_ ? spec_->nx : model_->nx(); }

std::size_t ModelState::np() const { return spec_ ? spec_->np : model_->np(); }

const std::string& ModelState::state_name(std::size_t i) const {
  return spec_ ? spec_->state_names.at(i) : model_->state_names().at(i);
}

const std::string& ModelState::param_name(std::size_t i) const {
  return spec_ ? spec_->param_names.at(i) : model_->param_names().at(i);
}

std::vector<double> ModelState::nominal_params() const {
  return spec_ ? spec_->nominal_params : model_->nominal_params();
}

}  // namespace odesens::capi
