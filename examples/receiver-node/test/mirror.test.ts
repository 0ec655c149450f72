import { testMirrorReceiver } from '@complib/example-test-support/mirror-suite'
import { createReceiver } from '../src/receiver'

// Mirror mode with a real complib push: the suite both example receivers pass.
testMirrorReceiver('receiver-node', async ({ secret, file }) => {
  const receiver = await createReceiver({ secret, file, mirror: true })
  return { url: await receiver.listen(0), close: () => receiver.close() }
})
