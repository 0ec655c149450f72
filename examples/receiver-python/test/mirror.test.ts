import { testMirrorReceiver } from '@complib/example-test-support/mirror-suite'
import { startPythonReceiver } from './python-receiver'

// Mirror mode with a real complib push: the suite both example receivers pass.
testMirrorReceiver('receiver-python', ({ secret, file }) => startPythonReceiver({ secret, file, mirror: true }))
