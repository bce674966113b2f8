// Breadth of semantics, third round: constructs the release's models use, answered through the CLI of
// the bundled engine on small models written here. Each expected value is worked out by hand beside it.
import { strict as assert } from 'node:assert';
import { askJson, modelFolder, refusalOf as refusal, valuesOf as values } from './ask-json';
import { buildIfMissing } from './built';

describe('breadth of semantics, round 3 (CLI)', function () {
  this.timeout(120_000);
  before(() => buildIfMissing('cli.js', 'engine.js'));
  const folder = modelFolder('assay-breadth3-');
  let n = 0;
  const write = (text: string): string => folder.model(`m${++n}.sysml`, text);

  describe('a redefinition named by the feature it redefines (`item :>> shape : Cylinder`)', () => {
    // KerML 7.3.4.6: `item :>> shape` declares a feature whose name is that of the feature it redefines;
    // the redefined one is the inherited Items::Item::shape (a part is an item), not the new feature
    // itself. The same model written `item sh :>> shape` was already read (Geometry Examples: SimpleQuadcopter,
    // VehicleGeometryAndCoordinateFrames, ExternalShapeRefExample).
    const shapes = `package G {
      private import ISQ::*;
      private import SI::*;
      private import ShapeItems::*;
      part motor {
        item :>> shape : Cylinder { :>> radius = 18 [mm]; :>> height = 30 [mm]; }
      }
      part battery {
        item :>> envelopingShapes : Box { :>> length = 140 [mm]; :>> width = 148 [mm]; :>> height = 90 [mm]; }
        attribute footprint = envelopingShapes.length * envelopingShapes.width;
      }
      part odd {
        item :>> nosuch : Cylinder { :>> height = 30 [mm]; }
      }
    }`;
    it('reads the part’s shape: radius 18 mm, height 30 mm', () => {
      assert.deepEqual(values(askJson('evaluate', 'G::motor', '--model', write(shapes))), { 'shape.radius': '18 [mm]', 'shape.height': '30 [mm]' });
    });
    it('computes with an enveloping shape: 140 mm × 148 mm = 20720 mm²', () => {
      assert.deepEqual(values(askJson('evaluate', 'G::battery::footprint', '--model', write(shapes))), { footprint: '20720 [mm^2]' });
    });
    it('still refuses a redefinition of a name no supertype and no library declares, at its place', () => {
      const path = write(shapes);
      assert.match(refusal(askJson('evaluate', 'G::odd', '--model', path)), new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:13:18: 'nosuch', which nosuch redefines, names nothing the model or the library declares`));
    });
  });

  describe('a nested part declared with a range of values that nothing subsets (`part cyl : Cylinder[4..6]`)', () => {
    // KerML 7.3.4.4: cyl holds between 4 and 6 values; the model does not say how many. Evaluating the
    // vehicle lists its values: several parts are only counted there, never listed one by one, so the
    // count is the one thing the range leaves open, and it is left out, said in the reason. A value
    // that reads the parts (size(eng.cyl)) still depends on the number and stays refused
    // ('Parts Example-1', 'Vehicle Decomposition', VehicleUsages of the release).
    const engines = `package D {
      private import ISQ::*;
      private import SI::*;
      part def Cylinder { attribute bore = 80 [mm]; }
      part def Engine {
        attribute displacement = 2.0 [L];
        part cyl : Cylinder[4..6];
      }
      part def Vehicle { part eng : Engine; attribute wheels = 4; }
      part small :> Vehicle { part redefines eng { part redefines cyl[4]; } }
      part counted :> Vehicle { attribute n = size(eng.cyl); }
    }`;
    it('lists the other values and says the parts are not counted', () => {
      const a = askJson('evaluate', 'D::Vehicle', '--model', write(engines));
      assert.deepEqual(values(a), { 'eng.displacement': '2 [L]', wheels: '4' });
      assert.match(a.answer.result?.reason ?? '', /eng\.cyl holds between 4 and 6 parts: the model does not say how many, so it is not counted/);
    });
    it('counts them where a redefinition says how many: 4', () => {
      assert.deepEqual(values(askJson('evaluate', 'D::small', '--model', write(engines))), { 'eng.displacement': '2 [L]', 'eng.cyl.count': '4', wheels: '4' });
    });
    it('still refuses a value that reads them, and the parts asked themselves, at the multiplicity', () => {
      const path = write(engines);
      const at = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      assert.match(refusal(askJson('evaluate', 'D::counted', '--model', path)), new RegExp(`${at}:7:28: 'counted\\.eng\\.cyl' has between 4 and 6 values and the model does not say which`));
      assert.match(refusal(askJson('evaluate', 'D::Engine::cyl', '--model', path)), new RegExp(`${at}:7:28: 'cyl' has between 4 and 6 values`));
    });
  });
});
