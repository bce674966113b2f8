import { readFileSync } from 'node:fs';
import { Model, Session } from './src/sysml/model/session';
const path = '../shared/soundness/rollup-subsetting.sysml';
const model = new Model({ documents: [{ path, text: readFileSync(path, 'utf8') }] });
const car = model.subject('R::car');
console.log(model.index.typesOf(car).map((t) => t.qualifiedName));
console.log(model.index.featuresOf(car).map((f) => f.qualifiedName));
const tm = model.index.featureNamed(car, 'totalMass')!;
console.log(tm.qualifiedName, (tm.node as any).value?.expression?.kind);
