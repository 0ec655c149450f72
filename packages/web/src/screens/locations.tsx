export default function Screen(_: { id?: string | undefined }) {
  return <h1>locations</h1>
}
