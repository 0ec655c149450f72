// Fakes of the providers, for tests of the server and the web interface that point a source at one.
export { startFake, sendJson, type Fake, type Fault, type SeenRequest } from '../../test/fakes/serve'
export { startMouserFake, MOUSER_FAKE_KEY, MOUSER_FAKE_PARTS } from '../../test/fakes/mouser'
export { startDigikeyFake, DIGIKEY_FAKE_CLIENT_ID, DIGIKEY_FAKE_SECRET, type DigikeyFake } from '../../test/fakes/digikey'
export { startTmeFake, TME_FAKE_TOKEN, TME_FAKE_SECRET } from '../../test/fakes/tme'
export { startNexarFake, NEXAR_FAKE_CLIENT_ID, NEXAR_FAKE_SECRET } from '../../test/fakes/nexar'
export { startPartdbFake, PARTDB_FAKE_TOKEN, PARTDB_FAKE_REF, type PartdbFake, type PartdbDb } from '../../test/fakes/partdb'
export { startInventreeFake, INVENTREE_FAKE_TOKEN, type InventreeFake } from '../../test/fakes/inventree'
