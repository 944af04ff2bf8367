import odesens

model = odesens.load("../shared/models/sbml/Boehm_JProteomeRes2014.xml")   # or "model.ode", "chua"
r = odesens.solve(model, "cvodes_fsa", t=[10.0, 100.0, 240.0])   # raises odesens.Error
print(r.param_names[0], "-> S at t = 240:", r.S[-1][:, 0])   # S[k, i, j] = dx_i/dp_j
