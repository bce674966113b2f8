// Breadth of semantics, third round: constructs the release's models use, answered through the CLI of
// the bundled engine on small models written here. Each expected value is worked out by hand beside it.
import { strict as assert } from 'node:assert';
import { askJson, modelFolder, type CliAnswer } from './ask-json';
import { buildIfMissing } from './built';

type Asked = { code: number | null; answer: CliAnswer };

function values(a: Asked): Record<string, string> {
  assert.equal(a.code, 0, JSON.stringify(a.answer));
  assert.equal(a.answer.standing?.strength, 'proved');
  return Object.fromEntries((a.answer.result?.values ?? []).map((v) => [v.name, v.unit ? `${String(v.value)} [${v.unit}]` : String(v.value)]));
}

function refusal(a: Asked): string {
  assert.equal(a.code, 3, JSON.stringify(a.answer));
  return a.answer.error?.message ?? '';
}

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
});
