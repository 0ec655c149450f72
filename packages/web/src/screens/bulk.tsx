export default function Screen(_: { id?: string | undefined }) {
  return <h1>bulk</h1>
}
